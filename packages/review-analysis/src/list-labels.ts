// Pros and cons written as a list: "Good: they got it running. Bad: screws on the floor.", "Pros: fast.
// Cons: pricey.", "On the plus side … On the minus side …". The labels carry no opinion of their own (their
// sections do), and a review that lists both what was good and what was bad says it is mixed, unless its cons
// are "none".
import lexicon from "./lexicon/sentiment.json" with { type: "json" };
import { PhraseTable, type Token } from "./tokenize.ts";

const PRO = 1;
const CON = 2;
const labels = (() => {
  const table = new Map<string, number>();
  for (const p of lexicon.pros_cons.pro) table.set(p, PRO);
  for (const p of lexicon.pros_cons.con) table.set(p, CON);
  return new PhraseTable<number>(table);
})();
const noneWords = new Set(lexicon.pros_cons.none);
// A one-word label ("Good", "Cons") needs its colon or dash; "on the plus side" is a label as it stands.
const LABEL_MARK = /^\s*[:\-–—]/;

export interface ListLabels {
  /** Token indices of the labels (their words say nothing about the work). */
  tokens: ReadonlySet<number>;
  /** Both a pro label and a con label with something listed under it. */
  prosAndCons: boolean;
}

const NONE: ListLabels = { tokens: new Set(), prosAndCons: false };

/** The list labels of a part: each opens a sentence or follows a line break. */
export function listLabels(part: string, tokens: readonly Token[], sentenceOf: readonly number[]): ListLabels {
  if (!part.includes(":") && !part.includes(" side")) return NONE;
  const at = new Set<number>();
  let seen = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (i > 0 && sentenceOf[i - 1] === sentenceOf[i] && !part.slice(tokens[i - 1].end, tokens[i].start).includes("\n"))
      continue;
    const label = labels.match(tokens, i);
    if (!label) continue;
    const end = i + label.length - 1;
    if (label.length === 1 && !LABEL_MARK.test(part.slice(tokens[end].end, tokens[end].end + 3))) continue;
    for (let k = i; k <= end; k++) at.add(k);
    const listed = tokens[end + 1];
    if (label.value === PRO || (listed !== undefined && !noneWords.has(listed.norm))) seen |= label.value;
    i = end;
  }
  return at.size ? { tokens: at, prosAndCons: seen === (PRO | CON) } : NONE;
}
