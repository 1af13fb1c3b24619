// Words whose valence depends on their context. Problem words (leak, clog, broken) describe the job, not
// the work, and so does an opinion of one ("a horrible smell"): neutral, unless absent ("no more leaks"),
// recurring ("leaking again", "the new faucet drips"), resolved ("the smell is gone", "found the leak"), not
// resolved ("couldn't find the leak") or caused by the crew ("they cracked our tile"). Things a customer wanted
// (a callback, updates) count against the work when missing. Dirt nouns count against it when left behind
// ("left sawdust", "dust everywhere"). Price-scale words (high, lowest) are opinions only about a price ("the
// quote was the lowest"). "Quiet" praises a machine, not a person.

import lexicon from "./lexicon/sentiment.json" with { type: "json" };
import { PhraseTable, type Token } from "./tokenize.ts";
import type { Aspect } from "./vocabulary.ts";

export const NEGATION_FACTOR = -0.6;
const problemWords = new Set(lexicon.problem_words);
const recurrence = new Set(lexicon.recurrence);
const resolution = new Set(lexicon.resolution);
const attempted = new Set([...lexicon.resolution, ...lexicon.attempts]);
const wanted = new Set(lexicon.wanted_things);
const dirtNouns = new Set(lexicon.dirt_nouns);
const dirtVerbs = new Set(lexicon.dirt_verbs);
const dirtSpread = PhraseTable.of(lexicon.dirt_spread);
const agents = new Set(lexicon.agents);
const freshWork = new Set(lexicon.fresh_work);
const afterWork = new Set(lexicon.after_work);
const dirtQuantity = new Set(lexicon.dirt_quantity);
const negators = new Set(lexicon.negators);
const damageWords = new Set(lexicon.damage_words);
const priceNouns = new Set(lexicon.price_nouns);
const priceScale = new Map(Object.entries(lexicon.price_scale));
// "the furnace is quiet now" praises the work; "a bit quiet" said of a person does not.
const machinePraise = new Map(Object.entries(lexicon.machine_praise));
const ABSENT_PROBLEM = 1.5;
const RECURRING_PROBLEM = -2.5;
const RESOLVED_PROBLEM = 2;
const UNRESOLVED_PROBLEM = -2.5;
const DAMAGE = -3;
const MISSING_WANTED = -2;
const DIRT_LEFT = -2.5;
const WINDOW = 3;
// "now it's making a rattling noise": "now" and "since" reach a little further back.
const AFTER_WORK_REACH = 5;

export interface ContextHit {
  valence: number;
  /** The job failed (a recurring problem, a fix that did not happen, damage): outweighs courtesy. */
  failure?: boolean;
  /** The aspect the context itself shows (a problem word is about the work). */
  aspect?: Aspect;
}

const near = (tokens: readonly Token[], from: number, to: number, set: ReadonlySet<string>) => {
  for (let k = Math.max(0, from); k <= Math.min(tokens.length - 1, to); k++) if (set.has(tokens[k].norm)) return k;
  return -1;
};

const WORK: Aspect = "workmanship";

/** Whether the verb at `verb` is negated ("didn't leave", "did not track", "never left"), within the unit. */
function negatedVerb(tokens: readonly Token[], verb: number, lo: number): boolean {
  for (let k = verb - 1; k >= Math.max(lo, verb - 2); k--) {
    const w = tokens[k].norm;
    if (negators.has(w) || w.endsWith("n't")) return true;
  }
  return false;
}

/**
 * The context-dependent word at i with negation applied, or undefined when the word is not one.
 * `lo`..`hi`: the opinion unit's tokens; `negated`: inside a negation's scope.
 */
// Every word a rule below reads at the token itself; with the problem word after it, the only way in.
export const contextWords: ReadonlySet<string> = new Set<string>([
  ...problemWords,
  ...damageWords,
  ...wanted,
  ...dirtNouns,
  ...machinePraise.keys(),
  ...priceScale.keys(),
]);

/** Whether contextValence can answer anything but undefined at i (a cheap test before it). */
export function mayHaveContext(tokens: readonly Token[], i: number): boolean {
  return contextWords.has(tokens[i].norm) || problemWords.has(tokens[i + 1]?.norm ?? "");
}

export function contextValence(
  tokens: readonly Token[],
  i: number,
  lo: number,
  hi: number,
  negated: boolean,
): ContextHit | undefined {
  const norm = tokens[i].norm;
  const from = Math.max(lo, i - WINDOW);
  const to = Math.min(hi, i + WINDOW);
  // "a horrible smell", "a nasty clog": an opinion of the problem the job was about, not of the work.
  const next = tokens[i + 1];
  if (next !== undefined && i + 1 <= hi && problemWords.has(next.norm) && !problemWords.has(norm)) {
    if (!dirtNouns.has(next.norm) && contextValence(tokens, i + 1, lo, hi, false)?.valence === 0) return { valence: 0 };
  }
  if (problemWords.has(norm)) {
    // "couldn't find the leak", "didn't fix the clog": the fix did not happen.
    if (negated && near(tokens, from, i - 1, attempted) >= 0)
      return { valence: UNRESOLVED_PROBLEM, failure: true, aspect: WORK };
    if (negated) return { valence: ABSENT_PROBLEM, aspect: WORK };
    if (damageWords.has(norm) && (agents.has(tokens[i - 1]?.norm) || (i - 2 >= lo && agents.has(tokens[i - 2].norm))))
      return { valence: DAMAGE, failure: true, aspect: WORK };
    // "leaking again", "the new faucet drips": a problem that persists or comes with the new work.
    if (near(tokens, from, to, recurrence) >= 0 || near(tokens, from, i - 1, freshWork) >= 0)
      return { valence: RECURRING_PROBLEM, failure: true, aspect: WORK };
    // "the smell from the drain is gone": the resolution may close the unit.
    if (near(tokens, from, hi, resolution) >= 0) return { valence: RESOLVED_PROBLEM, aspect: WORK };
    // "it leaks now", "dripping since they left": a problem that came after the work.
    if (near(tokens, Math.max(lo, i - AFTER_WORK_REACH), to, afterWork) >= 0)
      return { valence: RECURRING_PROBLEM, failure: true, aspect: WORK };
    if (!dirtNouns.has(norm)) return { valence: 0 };
  }
  if (damageWords.has(norm) && (agents.has(tokens[i - 1]?.norm) || (i - 2 >= lo && agents.has(tokens[i - 2].norm))))
    return { valence: negated ? 0 : DAMAGE, failure: !negated, aspect: WORK };
  if (wanted.has(norm) && negated) return { valence: MISSING_WANTED };
  if (dirtNouns.has(norm)) {
    // "much dust in the kitchen" (but not "without much dust": the unit's negator decides).
    const heaped = near(tokens, i - 2, i - 1, dirtQuantity) >= lo && near(tokens, lo, i - 1, negators) < 0;
    const verb = near(tokens, lo, i - 1, dirtVerbs);
    const left = verb >= 0 || heaped;
    const spread = i + 1 <= hi && dirtSpread.match(tokens, i + 1) !== undefined;
    // "didn't leave a single mark", "never tracked any mud in": the negation stands on the verb.
    const verbNegated = verb > lo && negatedVerb(tokens, verb, lo);
    if (left || spread) return { valence: negated || verbNegated ? DIRT_LEFT * NEGATION_FACTOR : DIRT_LEFT };
  }
  const machine = machinePraise.get(norm);
  if (machine !== undefined) {
    if (near(tokens, lo, hi, agents) >= 0) return { valence: 0 };
    return { valence: negated ? machine * NEGATION_FACTOR : machine, aspect: WORK };
  }
  const scale = priceScale.get(norm);
  if (scale !== undefined) {
    if (near(tokens, lo, hi, priceNouns) < 0) return { valence: 0 };
    return { valence: negated ? scale * NEGATION_FACTOR : scale, aspect: "price_value" };
  }
  return undefined;
}
