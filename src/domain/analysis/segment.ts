// Sentence and clause segmentation with exact offsets into the source text.

export interface Span {
  text: string;
  start: number;
  end: number;
}

const SENTENCE = /[^.!?\n]+(?:[.!?]+|\n|$)/g;
// Clause boundaries: semicolons, and contrast words that start a new clause.
const CLAUSE_BREAK =
  /\s*;\s*|,?\s+(?=(?:but|however|although|though|whereas|except|yet|while)\b)|,\s+(?=and\b)|\s+-{1,2}\s+|\s+—\s+/gi;

function trimSpan(text: string, start: number, end: number): Span | undefined {
  let s = start;
  let e = end;
  while (s < e && /[\s"“”'‘’(),:]/.test(text[s])) s++;
  while (e > s && /[\s"“”'‘’(),:]/.test(text[e - 1])) e--;
  if (e <= s || !/[\p{L}\p{N}]/u.test(text.slice(s, e))) return undefined;
  return { text: text.slice(s, e), start: s, end: e };
}

export function sentences(text: string): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(SENTENCE)) {
    const start = m.index ?? 0;
    const span = trimSpan(text, start, start + m[0].length);
    if (span) out.push(span);
  }
  return out;
}

export function clauses(text: string): Span[] {
  const out: Span[] = [];
  for (const sentence of sentences(text)) {
    let cursor = sentence.start;
    const body = sentence.text;
    for (const m of body.matchAll(CLAUSE_BREAK)) {
      const cut = sentence.start + (m.index ?? 0);
      const span = trimSpan(text, cursor, cut);
      if (span) out.push(span);
      cursor = cut + m[0].length;
    }
    const last = trimSpan(text, cursor, sentence.end);
    if (last) out.push(last);
  }
  return out;
}
