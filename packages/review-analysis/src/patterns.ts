// Opinions read from a pattern of words rather than a word: a problem that persists, a comparative against
// what was expected, a time span, a recommendation of a named person, a rating written in the text.
import { type Hit, intensifiers, isNegator, lexicon, makeHit, phrases, words } from "./sentiment-lexicon.ts";
import { firstWords, PhraseTable, type Token } from "./tokenize.ts";

const comparatives = new Map(Object.entries(lexicon.expectation_comparatives));
const expectationWords = new Set(lexicon.expectation_words);
// "less than the last guy charged", "better than the others": a comparison with a competitor.
const comparisonFoils = new Set(lexicon.comparison_foils);
const spans = lexicon.time_spans;
const spanPrepositions = new Set(spans.prepositions);
const spanFillers = new Set(spans.fillers);
const spanNumbers = new Set(spans.numbers);
const spanUnits = new Set(spans.units);
const slowVerbs = new Set(spans.slow_verbs);
const slowFillers = new Set(spans.slow_fillers);
const slowNumbers = new Set(spans.slow_numbers);
const slowUnits = new Set(spans.slow_units);
const slowPurpose = new Set(["to", "for", "before", "until"]);
const recommendOpeners = PhraseTable.of(lexicon.recommend_openers);
const restored = lexicon.restored_states;
const goodStates = new Set(restored.states);
const repeatStates = new Set(restored.repeat_states);
const doneByTimes = new Set(restored.by_times);
const afterFix = new Set(restored.after);
const getters = new Set(restored.getters);
const doneBy = new Set(restored.done_by);
const leftVerbs = new Set(lexicon.left_behind.verbs);
const leftPlaces = new Set(lexicon.left_behind.places);
const dirtNouns = new Set(lexicon.dirt_nouns);
const LEFT_BEHIND = -2.5;
// "couldn't have been cleaner", "can't get any better", "couldn't be worse": a negated modal before a comparative
// is that comparative's superlative, not its negation.
const negatedModals = new Set(["couldn't", "can't", "cannot"]);
const modalBridge = new Set(lexicon.superlative_bridge);
const MODAL_REACH = 5;
const SUPERLATIVE = 3;
// "worked for exactly one week", "lasted only two days": a fix limited to a short time failed.
const shortLived = lexicon.short_lived;
const shortVerbs = new Set(shortLived.verbs);
const shortFillers = new Set(shortLived.fillers);
const shortLimiters = new Set(shortLived.limiters);
const shortNumbers = new Set(shortLived.numbers);
const shortUnits = new Set(shortLived.units);
const SHORT_LIVED = -2.5;
const LEFT_REACH = 8;
// Every word a pattern of specialHit can start with (one look-up for the tokens that start none).
export const specialStarts = new Set<string>([
  "still",
  ...comparatives.keys(),
  ...spanPrepositions,
  ...slowVerbs,
  ...firstWords(lexicon.recommend_openers),
  ...goodStates,
  ...doneBy,
  ...leftVerbs,
  ...negatedModals,
  ...shortVerbs,
  "could",
  "can",
]);
const RESTORED = 2;
const GETTER_REACH = 3;
const STILL_NOT = -2.5;
const AGAINST_EXPECTATION_REACH = 4;
const QUICK_SPAN = 1.5;
const SLOW_SPAN = -2;
const RECOMMENDED_NAME = 2.5;

/**
 * Opinions read from a pattern rather than a word, or undefined: "still isn't cooling" (the problem persists,
 * to the end of the unit), "higher than I hoped" (a comparative against what was expected), "in 20 minutes"
 * (a short time span is speed), "ask for Priya" (recommending a named person).
 */
export function specialHit(
  tokens: readonly Token[],
  i: number,
  unitEnd: number,
  neutral: ReadonlySet<string>,
): { hit: Hit; length: number } | undefined {
  const norm = tokens[i].norm;
  if (!specialStarts.has(norm)) return undefined;
  const next = tokens[i + 1];
  if (norm === "still" && next !== undefined && i + 1 <= unitEnd && isNegator(next.norm)) {
    const praise = phrases.match(tokens, i + 1);
    // "still no complaints"
    if (praise && praise.value > 0)
      return { hit: makeHit(i + 1, praise.length, praise.value), length: praise.length + 1 };
    if (!praise || praise.value < 0)
      return {
        hit: makeHit(i, unitEnd - i + 1, STILL_NOT, "workmanship", true),
        length: unitEnd - i + 1,
      };
  }
  // "the drain is still slow", "still very loud": a fault that outlasted the visit.
  if (norm === "still" && next !== undefined) {
    const at = intensifiers.has(next.norm) ? i + 2 : i + 1;
    const fault = at <= unitEnd && !neutral.has(tokens[at].norm) ? (words.get(tokens[at].norm) ?? 0) : 0;
    if (fault < 0)
      return { hit: makeHit(i, at - i + 1, Math.min(fault, STILL_NOT), "workmanship"), length: at - i + 1 };
  }
  if (negatedModals.has(norm) || ((norm === "could" || norm === "can") && next?.norm === "not")) {
    const length = superlative(tokens, negatedModals.has(norm) ? i + 1 : i + 2, unitEnd);
    if (length !== 0) {
      const end = Math.abs(length);
      return { hit: makeHit(i, end - i, Math.sign(length) * SUPERLATIVE), length: end - i };
    }
  }
  if (shortVerbs.has(norm)) {
    const end = shortLivedEnd(tokens, i + 1, unitEnd);
    if (end > 0) return { hit: makeHit(i, end - i, SHORT_LIVED, "workmanship", true), length: end - i };
  }
  if (leftVerbs.has(norm) && leftInPlace(tokens, i, unitEnd))
    return { hit: makeHit(i, 1, LEFT_BEHIND, "cleanliness"), length: 1 };
  if (goodStates.has(norm) || doneBy.has(norm)) {
    const length = restoredState(tokens, i, unitEnd);
    if (length > 0) return { hit: makeHit(i, length, RESTORED, "workmanship"), length };
  }
  const comparative = comparatives.get(norm);
  if (comparative !== undefined) {
    const than = tokens[i + 1]?.norm === "than" ? i + 1 : tokens[i + 2]?.norm === "than" ? i + 2 : -1;
    if (than > 0 && than <= unitEnd)
      for (let k = than + 1; k <= Math.min(unitEnd, than + AGAINST_EXPECTATION_REACH); k++)
        if (expectationWords.has(tokens[k].norm) || comparisonFoils.has(tokens[k].norm))
          return { hit: makeHit(i, k - i + 1, comparative), length: k - i + 1 };
  }
  if (spanPrepositions.has(norm)) {
    const k = countedSpan(tokens, i + 1, unitEnd, spanFillers, spanNumbers, spanUnits);
    if (k >= 0) return { hit: makeHit(i, k + 2 - i, QUICK_SPAN, "speed"), length: k + 2 - i };
  }
  // "took four days to call back", "waited two weeks": days and weeks taken are slow.
  if (slowVerbs.has(norm)) {
    const k = countedSpan(tokens, i + 1, unitEnd, slowFillers, slowNumbers, slowUnits);
    // "took two days to call back", not "the upgrade took two days" (a job may take days): after "took", the
    // days must be spent on something.
    const spent = norm.startsWith("wait") || slowPurpose.has(tokens[k + 2]?.norm ?? "");
    if (k >= 0 && spent) return { hit: makeHit(i, k + 2 - i, SLOW_SPAN, "speed"), length: k + 2 - i };
  }
  const opener = recommendOpeners.match(tokens, i);
  if (opener && i + opener.length <= unitEnd && neutral.has(tokens[i + opener.length].norm))
    return { hit: makeHit(i, opener.length + 1, RECOMMENDED_NAME), length: opener.length + 1 };
  return undefined;
}

/**
 * "the house was warm by lunch", "had it flowing by noon", "the vent is clear now": the equipment brought back to
 * a working state is praise of the work. The state must be followed by a time it was reached ("by noon", "by 3")
 * or "now"/"again" (not "running again": a toilet that runs again is the problem), or follow a verb of getting
 * ("got it working"); a job done ("capped", "replaced") counts only with the time it was done by. Tokens covered, or 0. A negator just before the state ("not working by noon") is no praise.
 */
function restoredState(tokens: readonly Token[], i: number, unitEnd: number): number {
  for (let k = Math.max(0, i - GETTER_REACH); k < i; k++) if (isNegator(tokens[k].norm)) return 0;
  const next = i + 1 <= unitEnd ? tokens[i + 1].norm : "";
  if (next === "by" && i + 2 <= unitEnd) {
    const t = tokens[i + 2].norm === "the" && i + 3 <= unitEnd ? tokens[i + 3].norm : tokens[i + 2].norm;
    if (doneByTimes.has(t) || /^\d{1,2}(?::?\d\d)?(?:am|pm)?$/.test(t)) return tokens[i + 2].norm === "the" ? 4 : 3;
  }
  // "replaced by noon" is done in time; "replaced again" is not a state restored.
  if (!goodStates.has(tokens[i].norm)) return 0;
  if (afterFix.has(next) && !repeatStates.has(tokens[i].norm)) return 2;
  for (let k = Math.max(0, i - GETTER_REACH); k < i; k++) if (getters.has(tokens[k].norm)) return 1;
  return 0;
}

/** One past "[for] exactly one week" after a verb of lasting, or 0: a limiter, then a count, then a unit. */
function shortLivedEnd(tokens: readonly Token[], from: number, unitEnd: number): number {
  let k = from;
  while (k <= unitEnd && shortFillers.has(tokens[k].norm)) k++;
  if (k > unitEnd || !shortLimiters.has(tokens[k].norm)) return 0;
  k++;
  if (k <= unitEnd && (shortNumbers.has(tokens[k].norm) || /^\d+$/.test(tokens[k].norm))) k++;
  return k <= unitEnd && shortUnits.has(tokens[k].norm) ? k + 1 : 0;
}

/** A comparative's valence: that of its base ("cleaner", "nicer", "happier", "bigger"), or 0. */
function comparativeValence(norm: string): number {
  if (norm === "better") return 1;
  if (norm === "worse") return -1;
  if (norm.length < 5 || !norm.endsWith("er")) return 0;
  const bases = norm.endsWith("ier")
    ? [`${norm.slice(0, -3)}y`]
    : [norm.slice(0, -2), norm.slice(0, -1), norm[norm.length - 3] === norm[norm.length - 4] ? norm.slice(0, -3) : ""];
  for (const base of bases) {
    const v = words.get(base);
    if (v !== undefined && v !== 0) return Math.sign(v);
  }
  return 0;
}

/**
 * After a negated modal, the end (one past) of "[have] been cleaner" / "get any better" / "be more helpful",
 * signed by the comparative's direction; 0 when no comparative follows within reach.
 */
function superlative(tokens: readonly Token[], from: number, unitEnd: number): number {
  for (let k = from; k <= Math.min(unitEnd, from + MODAL_REACH); k++) {
    const w = tokens[k].norm;
    if (w === "more" && k + 1 <= unitEnd) {
      const v = words.get(tokens[k + 1].norm) ?? 0;
      if (v !== 0) return Math.sign(v) * (k + 2);
    }
    const c = comparativeValence(w);
    if (c !== 0) return c * (k + 1);
    if (!modalBridge.has(w)) return 0;
  }
  return 0;
}

/**
 * "left the old water heater in my driveway", "left the boxes on our porch": something left behind in a place of
 * the customer's is a mess, whatever it is. Not under a negator ("didn't leave anything in the yard").
 */
function leftInPlace(tokens: readonly Token[], i: number, unitEnd: number): boolean {
  for (let k = Math.max(0, i - 2); k < i; k++) if (isNegator(tokens[k].norm)) return false;
  for (let k = i + 1; k < Math.min(unitEnd, i + LEFT_REACH); k++) {
    const w = tokens[k].norm;
    // "left sawdust on the stairs": dirt is the dirt rule's (context-rules.ts), not counted twice.
    if (dirtNouns.has(w)) return false;
    if (w !== "in" && w !== "on" && w !== "all") continue;
    const owner = tokens[k + 1]?.norm;
    const place = owner === "my" || owner === "our" || owner === "the" || owner === "over" ? tokens[k + 2] : undefined;
    if (place !== undefined && k + 2 <= unitEnd && leftPlaces.has(place.norm)) return true;
  }
  return false;
}

/**
 * Where a count of time units starts ("[about] 20 minutes", "two weeks"): from `from`, fillers skipped, a number
 * (digits or a number word) followed by a unit, both inside the unit; -1 when there is none.
 */
function countedSpan(
  tokens: readonly Token[],
  from: number,
  unitEnd: number,
  fillers: ReadonlySet<string>,
  numbers: ReadonlySet<string>,
  units: ReadonlySet<string>,
): number {
  let k = from;
  while (k < unitEnd && fillers.has(tokens[k].norm) && !units.has(tokens[k + 1]?.norm ?? "")) k++;
  const n = tokens[k];
  return n !== undefined &&
    k < unitEnd &&
    (/^\d+$/.test(n.norm) || numbers.has(n.norm)) &&
    units.has(tokens[k + 1].norm)
    ? k
    : -1;
}

const RATING = /^(\d+(?:\.\d+)?)\/(5|10)$/;
const RATING_VALENCE = 3;

/** "5/5", "9/10" praise; "1/5", "2/10" condemn; "3/5" says neither. Other fractions are no rating. */
export function ratingValence(norm: string): number | undefined {
  if (!norm.includes("/")) return undefined;
  const m = RATING.exec(norm);
  if (!m) return undefined;
  const share = Number(m[1]) / Number(m[2]);
  if (share > 1) return undefined;
  return share >= 0.8 ? RATING_VALENCE : share <= 0.4 ? -RATING_VALENCE : undefined;
}
