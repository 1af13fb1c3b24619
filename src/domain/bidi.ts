// Customers' text may carry Unicode bidirectional controls (U+202A-U+202E embeddings and overrides, U+2066-U+2069
// isolates). Left open, one reorders whatever follows it on the page: "‮" turns the rest of a line around. Pages put
// such text in elements with dir="auto" (isolated: nothing outside them moves); where text has no element of its
// own (a <title>, a meta description, an excerpt cut short) closeBidi ends every control it leaves open.

const OPENERS_EMBEDDING = new Set(["\u202a", "\u202b", "\u202d", "\u202e"]); // LRE RLE LRO RLO, closed by PDF
const OPENERS_ISOLATE = new Set(["\u2066", "\u2067", "\u2068"]); // LRI RLI FSI, closed by PDI
const PDF = "\u202c";
const PDI = "\u2069";
const ANY_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** `text` with a closing mark appended for every embedding, override or isolate it leaves open (UAX #9 pairing). */
export function closeBidi(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  // The stack of open controls, innermost last: a PDI closes up to its isolate, a PDF its innermost embedding.
  const open: string[] = [];
  for (const ch of text) {
    if (OPENERS_EMBEDDING.has(ch) || OPENERS_ISOLATE.has(ch)) open.push(ch);
    else if (ch === PDI) {
      const at = open.findLastIndex((c) => OPENERS_ISOLATE.has(c));
      if (at >= 0) open.length = at;
    } else if (ch === PDF) {
      const last = open.at(-1);
      if (last !== undefined && OPENERS_EMBEDDING.has(last)) open.pop();
    }
  }
  return (
    text +
    open
      .map((c) => (OPENERS_ISOLATE.has(c) ? PDI : PDF))
      .reverse()
      .join("")
  );
}
