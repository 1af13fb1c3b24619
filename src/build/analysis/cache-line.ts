// One line of the analysis cache (analysis-cache.ts): the key, the published record and the rest ([published
// without its record, parts]), each as JSON, separated by tabs (JSON text never holds a raw tab or newline).
// Worker threads send their results as these lines: JSON is cheaper to make and to read back than a structured
// clone of the same objects (measured at 100,000 reviews), and the cache appends the lines as they came. The
// record's own JSON is kept with it: it is JSON.stringify of the record read back, so reviews.json reuses it
// instead of stringifying every cached record again (serialiseDataset).
import type { Analysed } from "./analyse-in-workers.ts";

export const cacheLine = (key: string, value: Analysed): string => {
  const { record, ...rest } = value.published;
  const recordJson = value.recordJson ? value.recordJson.toString("utf8") : JSON.stringify(record);
  return `${JSON.stringify(key)}\t${recordJson}\t${JSON.stringify([rest, value.parts])}\n`;
};

/**
 * A key as the cache writes it (reviewKey: 64 hex digits in quotes) is its bytes between the quotes: no
 * JSON.parse for it (measured: a sixth of reading the cache at 100,000 reviews). Anything else is parsed.
 */
function plainKey(bytes: Buffer, start: number, end: number): string | undefined {
  if (end - start !== 66 || bytes[start] !== 0x22 || bytes[end - 1] !== 0x22) return undefined;
  for (let i = start + 1; i < end - 1; i++) {
    const c = bytes[i];
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return undefined;
  }
  return bytes.toString("latin1", start + 1, end - 1);
}

/**
 * The lines of `lines` (from byte `from`) that parse, in order; a line that does not (an interrupted append) is
 * left out. Lines are found in the bytes and each part decoded on its own (a UTF-8 byte 0x0a or 0x09 is always
 * the character): decoding the whole file at once made one two-byte string of it as soon as one review held a
 * character outside Latin-1, so every record's JSON was a two-byte slice that kept the whole decoded file alive
 * and parsed slower (measured at 100,000 reviews: 1.3 s against 1.5-1.7 s of CPU for the parse, and a
 * 204 MB string less held until the build ends).
 */
export function* parseCacheLines(lines: Buffer | string, from = 0): Generator<[string, Analysed]> {
  const bytes = typeof lines === "string" ? Buffer.from(lines) : lines;
  let start = from;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    const tab1 = bytes.indexOf(0x09, start);
    const tab2 = tab1 === -1 || tab1 >= end ? -1 : bytes.indexOf(0x09, tab1 + 1);
    if (end > start && tab1 !== -1 && tab2 !== -1 && tab2 < end) {
      try {
        const key = plainKey(bytes, start, tab1) ?? (JSON.parse(bytes.toString("utf8", start, tab1)) as string);
        const record = JSON.parse(bytes.toString("utf8", tab1 + 1, tab2)) as Analysed["published"]["record"];
        const recordJson = bytes.subarray(tab1 + 1, tab2);
        const [rest, parts] = JSON.parse(bytes.toString("utf8", tab2 + 1, end)) as [
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
