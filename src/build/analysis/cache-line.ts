// One line of the analysis cache (analysis-cache.ts): JSON of [key, published, parts]. Worker threads send their
// results as these lines: JSON is cheaper to make and to read back than a structured clone of the same objects
// (measured at 100,000 reviews), and the cache appends the lines as they came.
import type { Analysed } from "./analyse-in-workers.ts";

export const cacheLine = (key: string, value: Analysed): string =>
  `${JSON.stringify([key, value.published, value.parts])}\n`;

/** The lines of `text` that parse, in order; a line that does not (an interrupted append) is left out. */
export function* parseCacheLines(text: string, from = 0): Generator<[string, Analysed]> {
  let start = from;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (end > start) {
      try {
        const [key, published, parts] = JSON.parse(text.slice(start, end)) as [
          string,
          Analysed["published"],
          Analysed["parts"],
        ];
        yield [key, { published, parts }];
      } catch {
        // an interrupted append: that review is analysed again
      }
    }
    start = end + 1;
  }
}
