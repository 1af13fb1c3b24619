// Sentence and clause segmentation with exact offsets into the source text.

export interface Span {
  text: string;
  start: number;
  end: number;
}

const SENTENCE = /[^.!?\n]+(?:[.!?]+|\n|$)/g;
// Clause boundaries: semicolons, and contrast words that start a new clause ("yet" after "not"/"sure" is the
// adverb: "not sure yet if", "not yet"). A boundary that begins with white space begins where that white space
// does ((?<!\s)): tried from each of its characters, a long run of spaces cost time quadratic in its length
// (100,000 spaces: 61 s), and "not  but" with two spaces slipped past the "not" check from the second one.
const CLAUSE_BREAK =
  /(?<!\s)\s*;\s*|,?(?<!\s)(?<!\b(?:even|not|sure))\s+(?=(?:but|however|although|though|tho|altho|whereas|except|yet|while|despite|in spite of|pero|sin embargo)\b(?![\s.!?]*$))|,\s+(?=and\b)|(?<!\s)\s+-{1,2}\s+|(?<!\s)\s+—\s+/gi;

// What a span's edges shed, and what a span must hold.
const EDGE = /[\s"“”'‘’(),:]/;
const WORDISH = /[\p{L}\p{N}]/u;

function trimSpan(text: string, start: number, end: number): Span | undefined {
  let s = start;
  let e = end;
  while (s < e && EDGE.test(text[s])) s++;
  while (e > s && EDGE.test(text[e - 1])) e--;
  if (e <= s) return undefined;
  const trimmed = text.slice(s, e);
  return WORDISH.test(trimmed) ? { text: trimmed, start: s, end: e } : undefined;
}

export function sentences(text: string): Span[] {
  const out: Span[] = [];
  // exec from lastIndex 0, not matchAll (which copies the expression at every call); no match is empty.
  SENTENCE.lastIndex = 0;
  for (let m = SENTENCE.exec(text); m !== null; m = SENTENCE.exec(text)) {
    const start = m.index;
    const span = trimSpan(text, start, start + m[0].length);
    if (span) out.push(span);
  }
  return out;
}

// A sentence that opens with a concession ("Although it cost more, it was worth it") concedes up to its comma.
const CONCESSIVE_OPENING =
  /^(?:although|altho|though|tho|even though|even if|while|whereas|despite|in spite of)\b[^,]*,\s*/i;

/** The clauses of `text`, whose sentences (`sentences(text)`) the caller may have found already. */
export function clauses(text: string, sentenceSpans: readonly Span[] = sentences(text)): Span[] {
  const out: Span[] = [];
  for (const sentence of sentenceSpans) {
    let cursor = sentence.start;
    const body = sentence.text;
    const opening = CONCESSIVE_OPENING.exec(body);
    const cuts: [number, number][] = opening ? [[opening[0].lastIndexOf(","), opening[0].length]] : [];
    CLAUSE_BREAK.lastIndex = 0;
    for (let m = CLAUSE_BREAK.exec(body); m !== null; m = CLAUSE_BREAK.exec(body)) {
      const at = m.index;
      if (opening === null || at >= opening[0].length) cuts.push([at, at + m[0].length]);
    }
    for (const [from, to] of cuts) {
      const span = trimSpan(text, cursor, sentence.start + from);
      if (span) out.push(span);
      cursor = sentence.start + to;
    }
    const last = trimSpan(text, cursor, sentence.end);
    if (last) out.push(last);
  }
  return out;
}
