// Words whose valence depends on their context. Problem words (leak, clog, broken) describe the job, not
// the work: neutral, unless absent ("no more leaks"), recurring ("leaking again") or resolved ("the smell is
// gone"). Things a customer wanted (a callback, updates) count against the work when missing. Dirt nouns
// count against it when left behind ("left sawdust", "dust everywhere").
import lexicon from "./lexicon/sentiment.json" with { type: "json" };
import { PhraseTable, type Token } from "./tokenize.ts";

export const NEGATION_FACTOR = -0.6;
const problemWords = new Set(lexicon.problem_words);
const recurrence = new Set(lexicon.recurrence);
const resolution = new Set(lexicon.resolution);
const wanted = new Set(lexicon.wanted_things);
const dirtNouns = new Set(lexicon.dirt_nouns);
const dirtVerbs = new Set(lexicon.dirt_verbs);
const dirtSpread = new PhraseTable<true>(lexicon.dirt_spread.map((p) => [p, true]));
const ABSENT_PROBLEM = 1.5;
const RECURRING_PROBLEM = -2.5;
const RESOLVED_PROBLEM = 2;
const MISSING_WANTED = -2;
const DIRT_LEFT = -2.5;
const WINDOW = 3;

const near = (tokens: readonly Token[], from: number, to: number, set: ReadonlySet<string>) => {
  for (let k = Math.max(0, from); k <= Math.min(tokens.length - 1, to); k++) if (set.has(tokens[k].norm)) return true;
  return false;
};

/**
 * Valence of a context-dependent word at i with negation applied, or undefined when the word is not one.
 * `lo`..`hi`: the opinion unit's tokens; `negated`: inside a negation's scope.
 */
export function contextValence(tokens: readonly Token[], i: number, lo: number, hi: number, negated: boolean) {
  const norm = tokens[i].norm;
  const from = Math.max(lo, i - WINDOW);
  const to = Math.min(hi, i + WINDOW);
  if (problemWords.has(norm)) {
    if (negated) return ABSENT_PROBLEM;
    if (near(tokens, from, to, recurrence)) return RECURRING_PROBLEM;
    if (near(tokens, from, to, resolution)) return RESOLVED_PROBLEM;
    if (!dirtNouns.has(norm)) return 0;
  }
  if (wanted.has(norm) && negated) return MISSING_WANTED;
  if (dirtNouns.has(norm)) {
    const left = near(tokens, from, i - 1, dirtVerbs);
    const spread = i + 1 <= hi && dirtSpread.match(tokens, i + 1) !== undefined;
    if (left || spread) return negated ? DIRT_LEFT * NEGATION_FACTOR : DIRT_LEFT;
  }
  return undefined;
}
