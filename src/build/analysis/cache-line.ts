// One line of the analysis cache (analysis-cache.ts): the key, the published record and the rest ([published
// without its record, parts]), each as JSON, separated by tabs (JSON text never holds a raw tab or newline).
// Worker threads send their results as these lines: JSON is cheaper to make and to read back than a structured
// clone of the same objects (measured at 100,000 reviews), and the cache appends the lines as they came. The
// record's own JSON is kept with it: it is JSON.stringify of the record read back, so reviews.json reuses it
// instead of stringifying every cached record again (serialiseDataset).
import type { Analysed } from "./analyse-in-workers.ts";

export const cacheLine = (key: string, value: Analysed): string => {
  const { record, ...rest } = value.published;
  const recordJson = value.recordJson ?? JSON.stringify(record);
  return `${JSON.stringify(key)}\t${recordJson}\t${JSON.stringify([rest, value.parts])}\n`;
};

/**
 * A key as the cache writes it (reviewKey: 64 hex digits in quotes) is its text between the quotes: no
 * JSON.parse for it (measured: a sixth of reading the cache at 100,000 reviews). Anything else is parsed.
 */
function plainKey(text: string, start: number, end: number): string | undefined {
  if (end - start !== 66 || text.charCodeAt(start) !== 0x22 || text.charCodeAt(end - 1) !== 0x22) return undefined;
  for (let i = start + 1; i < end - 1; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return undefined;
  }
  return text.slice(start + 1, end - 1);
}

/** The lines of `text` that parse, in order; a line that does not (an interrupted append) is left out. */
export function* parseCacheLines(text: string, from = 0): Generator<[string, Analysed]> {
  let start = from;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const tab1 = text.indexOf("\t", start);
    const tab2 = tab1 === -1 ? -1 : text.indexOf("\t", tab1 + 1);
    if (end > start && tab1 !== -1 && tab2 !== -1 && tab2 < end) {
      try {
        const key = plainKey(text, start, tab1) ?? (JSON.parse(text.slice(start, tab1)) as string);
        const recordJson = text.slice(tab1 + 1, tab2);
        const record = JSON.parse(recordJson) as Analysed["published"]["record"];
        const [rest, parts] = JSON.parse(text.slice(tab2 + 1, end)) as [
          Omit<Analysed["published"], "record">,
          Analysed["parts"],
        ];
        if (typeof key === "string") yield [key, { published: { record, ...rest }, parts, recordJson }];
      } catch {
        // an interrupted append: that review is analysed again
      }
    }
    start = end + 1;
  }
}
