// The rules' findings as the review-label model's features (review-model.ts): what the rules already computed
// about a review (weighted praise and criticism, the verdict, failures, the first and last opinion, aspects of
// each polarity, the rules' own label) and a few cues in the raw text (a rating, a question, a hedge). No word of
// the review is a feature here: the model's words are text-features.ts.

import type { Masses } from "./verdict.ts";
import type { Sentiment } from "./vocabulary.ts";

/** Feature names, in the order of the vector `labelFeatures` returns and the model's weights. */
export const FEATURE_NAMES = [
  "praise",
  "criticism",
  "unconceded_praise",
  "unconceded_criticism",
  "weaker_side",
  "balance",
  "failure",
  "verdict",
  "says_mixed",
  "score",
  "rule_positive",
  "rule_negative",
  "rule_mixed",
  "first_opinion",
  "last_opinion",
  "positive_clauses",
  "negative_clauses",
  "contrast",
  "positive_aspects",
  "negative_aspects",
  "no_opinion",
  "rating_high",
  "rating_low",
  "question",
  "hedge",
  "length",
] as const;

export interface RuleResult {
  score: number;
  overall: Sentiment | "mixed";
}

const squash = (x: number) => Math.log1p(Math.max(0, x));
const sign = (x: number) => (x > 0 ? 1 : x < 0 ? -1 : 0);

// "5/5", "10/10", "4.5 / 5", "five stars", "1 star", "zero stars", "A+": a rating written in the text.
// Not from inside a number: each digit of a long run was a start that scanned to the run's end (quadratic: 100,000
// digits took 7 s). A match found from inside a run is found from its first digit too.
const RATIO = /(?<!\d)(\d+(?:\.\d+)?)\s*(?:\/|out of)\s*(5|10)\b/gi;
const STARS = /\b(zero|no|one|two|three|four|five|0|1|2|3|4|5)\s*(?:-\s*)?stars?\b/gi;
const A_PLUS = /(?:^|\s)a\+/i;
const STAR_WORDS: Readonly<Record<string, number>> = { zero: 0, no: 0, one: 1, two: 2, three: 3, four: 4, five: 5 };
// Hedges that leave the verdict open ("I guess", "not sure", "hard to tell").
const HEDGE = /\b(i guess|not sure|hard to tell|i suppose|we'?ll see|time will tell|kind of|sort of|i think)\b/i;

/** The share of the top of the scale a rating in the text gives, or undefined when there is none. */
export function ratingIn(text: string): number | undefined {
  let best: number | undefined;
  // exec from lastIndex 0, not matchAll (which copies the expression at every call); no match is empty.
  RATIO.lastIndex = 0;
  for (let m = RATIO.exec(text); m !== null; m = RATIO.exec(text)) {
    const share = Number(m[1]) / Number(m[2]);
    if (share <= 1) best = share;
  }
  STARS.lastIndex = 0;
  for (let m = STARS.exec(text); m !== null; m = STARS.exec(text)) {
    const word = m[1].toLowerCase();
    best = (STAR_WORDS[word] ?? Number(word)) / 5;
  }
  if (best === undefined && A_PLUS.test(text)) best = 1;
  return best;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** A letter or a digit (ASCII ones without the regular expression). */
function isWordChar(c: string): boolean {
  const k = c.charCodeAt(0) | 32;
  return (k >= 97 && k <= 122) || (c >= "0" && c <= "9") || (c.charCodeAt(0) > 127 && WORD_CHAR.test(c));
}

/** A whitespace-separated word, lowercased, without punctuation at its edges ("Delgado," → "delgado"). */
function bare(w: string): string {
  let from = 0;
  let to = w.length;
  while (from < to && !isWordChar(w[from])) from++;
  while (to > from && !isWordChar(w[to - 1])) to--;
  return w.slice(from, to).toLowerCase();
}

/** The count of words of the parts, the words in `skip` (bare) left out. */
function wordCount(parts: readonly string[], skip: ReadonlySet<string>): number {
  let words = 0;
  for (const p of parts) for (const w of p.split(/\s+/)) if (w && (skip.size === 0 || !skip.has(bare(w)))) words++;
  return words;
}

/** The feature vector of one review, in FEATURE_NAMES order; words in `skip` (names) do not count in its length. */
export function labelFeatures(
  masses: Masses,
  rules: RuleResult,
  aspects: readonly { polarity: Sentiment }[],
  parts: readonly string[],
  skip: ReadonlySet<string> = new Set(),
): number[] {
  const praise = masses.positive;
  const criticism = -masses.negative;
  const up = masses.mixPositive;
  const un = -masses.mixNegative;
  const weaker = Math.min(up, un);
  const text = parts.join("\n");
  const rating = ratingIn(text);
  const words = wordCount(parts, skip);
  let positiveAspects = 0;
  let negativeAspects = 0;
  for (const a of aspects)
    if (a.polarity === "positive") positiveAspects++;
    else if (a.polarity === "negative") negativeAspects++;
  return [
    squash(praise),
    squash(criticism),
    squash(up),
    squash(un),
    squash(weaker),
    weaker === 0 ? 0 : weaker / Math.max(up, un),
    squash(-masses.failure),
    sign(masses.verdict) * squash(Math.abs(masses.verdict)),
    masses.saysMixed ? 1 : 0,
    rules.score,
    rules.overall === "positive" ? 1 : 0,
    rules.overall === "negative" ? 1 : 0,
    rules.overall === "mixed" ? 1 : 0,
    sign(masses.firstClause),
    sign(masses.lastClause),
    squash(masses.positiveClauses),
    squash(masses.negativeClauses),
    masses.contrast ? 1 : 0,
    squash(positiveAspects),
    squash(negativeAspects),
    praise === 0 && criticism === 0 ? 1 : 0,
    rating !== undefined && rating >= 0.8 ? 1 : 0,
    rating !== undefined && rating <= 0.4 ? 1 : 0,
    text.includes("?") ? 1 : 0,
    HEDGE.test(text) ? 1 : 0,
    squash(words) / 4,
  ];
}
