// From opinion hits to the review's verdict: clause weighting for the score ("X but Y": Y carries the
// verdict, so X counts half; "although X" weighs less) and the `mixed` label, given only when praise and
// criticism stand side by side ("Rude receptionist, great technician") or the praise is of the work itself
// ("Great work, but it cost a fortune"), not when one is conceded to the other.

import lexicon from "./lexicon/sentiment.json" with { type: "json" };
import { clauseWeight, type Hit, labelOf, normalizeScore, opensContrast } from "./sentiment.ts";
import { firstWords, PhraseTable, type Token } from "./tokenize.ts";
import type { Sentiment } from "./vocabulary.ts";

// Mixed: both sides carry at least this much weighted valence and the weaker is at least this share of the other.
const MIXED_MIN = 1.2;
const MIXED_RATIO = 0.5;
// For the mixed test only: a clause a contrast answers ("X, but Y") or a concession opening a sentence
// ("Although X, Y") weighs this much less again.
const CONCEDED = 0.5;
const CONTRAST_WEIGHT = 1.5;
// Plain praise ("good", "nice", "fast"), not lukewarm ("ok", "fine", "decent"): at least this valence.
const STRONG_PRAISE = 2;
// Harsh criticism ("a nightmare", "rude", "a joke"), not mild ("a bit slow", "not the friendliest").
const STRONG_CRITICISM = 3;
// A failed job ("broke again a week later") is not made up for by praise: the praise counts this much.
const FAILURE_DISCOUNT = 0.5;
// "Overall", "all in all": the clause that states the verdict weighs this much more.
const VERDICT_WEIGHT = 2;
// "Decent job I guess": a hedged clause weighs this much.
const HEDGED = 0.5;
// "too early to tell", "not sure yet", "we'll see": a verdict put off, not hedged; the clause weighs this much.
const SUSPENDED = 0.15;
const MILD = 1;
const LUKEWARM_SHARE = 0.25;
// One table for the three kinds of marker (one look-up per token): bit flags of what a phrase marks.
const HEDGE = 1;
const VERDICT = 2;
const SAYS_MIXED = 4;
const SUSPENDED_VERDICT = 8;
const markers = (() => {
  const flags = new Map<string, number>();
  const add = (list: string[], flag: number) => {
    for (const p of list) flags.set(p, (flags.get(p) ?? 0) | flag);
  };
  add(lexicon.hedges, HEDGE);
  add(lexicon.suspended_verdicts, HEDGE | SUSPENDED_VERDICT);
  add(lexicon.verdict_markers, VERDICT);
  add(lexicon.mixed_markers, SAYS_MIXED);
  return new PhraseTable<number>(flags);
})();
const concessiveOpeners = new Set(firstWords(lexicon.concessive_openers));

export interface Masses {
  positive: number;
  negative: number;
  mixPositive: number;
  mixNegative: number;
  /** Weighted valence of the job's failures. */
  failure: number;
  /** Weighted valence of clauses that state a verdict ("overall, happy"). */
  verdict: number;
  /** The reviewer calls it mixed ("mixed feelings"). */
  saysMixed: boolean;
  /** Net valence of the first and of the last clause that carries any opinion (title before text). */
  firstClause: number;
  lastClause: number;
  /** Clauses whose net valence is positive, and negative. */
  positiveClauses: number;
  negativeClauses: number;
  /** A clause answers the one before it ("X, but Y"). */
  contrast: boolean;
  /** Some opinion is lukewarm ("ok", "fine"), and the strongest of the others (absolute valence). */
  lukewarm: boolean;
  strongestOther: number;
}

export const noMasses = (): Masses => ({
  positive: 0,
  negative: 0,
  mixPositive: 0,
  mixNegative: 0,
  failure: 0,
  verdict: 0,
  saysMixed: false,
  firstClause: 0,
  lastClause: 0,
  positiveClauses: 0,
  negativeClauses: 0,
  contrast: false,
  lukewarm: false,
  strongestOther: 0,
});

/** Adds one part's weighted positive and negative valence to `into`. */
export function addClauseMasses(
  into: Masses,
  hits: readonly Hit[],
  tokens: readonly Token[],
  clauseOf: readonly number[],
  sentenceOf: readonly number[],
  clauseCount: number,
  praisedWork: ReadonlySet<number> = new Set(),
  faultedWork: ReadonlySet<number> = new Set(),
  faultedPrice: ReadonlySet<number> = new Set(),
): void {
  const p = new Float64Array(clauseCount);
  const n = new Float64Array(clauseCount);
  const strongest = new Float64Array(clauseCount);
  const harshest = new Float64Array(clauseCount);
  const failed = new Uint8Array(clauseCount);
  for (const h of hits) {
    const c = clauseOf[h.index];
    if (h.valence > 0) p[c] += h.valence;
    else n[c] += h.valence;
    if (h.valence > strongest[c]) strongest[c] = h.valence;
    if (h.valence < harshest[c]) harshest[c] = h.valence;
    if (h.failure) failed[c] = 1;
  }
  const first = new Int32Array(clauseCount).fill(-1);
  const last = new Int32Array(clauseCount).fill(-1);
  for (let i = tokens.length - 1; i >= 0; i--) first[clauseOf[i]] = i;
  for (let i = 0; i < tokens.length; i++) last[clauseOf[i]] = i;
  const weight = new Float64Array(clauseCount).fill(1);
  const mix = new Float64Array(clauseCount).fill(1);
  const verdictClause = new Uint8Array(clauseCount);
  // The factor a hedge put on each clause (1: none).
  const hedged = new Float64Array(clauseCount).fill(1);
  for (let i = 0; i < tokens.length; i++) {
    const marker = markers.match(tokens, i)?.value ?? 0;
    if (marker === 0) continue;
    if (marker & VERDICT) verdictClause[clauseOf[i]] = 1;
    if (marker & HEDGE) {
      const factor = marker & SUSPENDED_VERDICT ? SUSPENDED : HEDGED;
      weight[clauseOf[i]] *= factor;
      hedged[clauseOf[i]] = Math.min(hedged[clauseOf[i]], factor);
    }
    if (marker & SAYS_MIXED) into.saysMixed = true;
  }
  for (let c = 0; c < clauseCount; c++) {
    if (first[c] < 0) continue;
    const opening = tokens.slice(first[c], first[c] + 2);
    weight[c] *= clauseWeight(opening);
    const opensSentence = c === 0 || first[c - 1] < 0 || sentenceOf[first[c - 1]] !== sentenceOf[first[c]];
    // "seems good so far, but it's too early to tell": a hedge answering a clause hedges that clause; "Works
    // great so far. Time will tell.": a verdict put off in the next sentence puts off the one before it too.
    if (
      hedged[c] < 1 &&
      c > 0 &&
      first[c - 1] >= 0 &&
      (opensContrast(opening) || (opensSentence && hedged[c] === SUSPENDED))
    )
      weight[c - 1] *= hedged[c];
    if (verdictClause[c]) weight[c] *= VERDICT_WEIGHT;
    // "despite a slow start" concedes wherever it stands.
    if ((opensSentence && weight[c] < 1) || concessiveOpeners.has(opening[0].norm)) mix[c] *= CONCEDED;
    // "the work, though, is excellent", "the diagnosis was wrong though": adverbial "though" is "however".
    const adverbialThough =
      (opening[0].norm === "though" && opening[1] !== undefined && opening[1].start - opening[0].end >= 2) ||
      (tokens[last[c]].norm === "though" && last[c] > first[c]);
    if (adverbialThough) weight[c] = CONTRAST_WEIGHT;
    if (c > 0 && (opensContrast(opening) || adverbialThough) && sentenceOf[first[c - 1]] === sentenceOf[first[c]]) {
      into.contrast = true;
      weight[c - 1] /= 2;
      // "Good technician but the office lost my address", "fast and friendly, but way too expensive": plain
      // praise answered by a complaint that is neither about the work nor a failed job is not conceded. Lukewarm
      // praise ("ok but overpriced") and a faulted job ("nice guy but the work was sloppy") are still conceded.
      const praiseAnswered =
        strongest[c - 1] >= STRONG_PRAISE && p[c - 1] + n[c - 1] > 0 && n[c] < 0 && !failed[c] && !faultedWork.has(c);
      // "scheduling was a nightmare, but once the tech got here he was great": harsh criticism answered by
      // praise is not conceded either (a price is: "the price was high but the work was excellent").
      const harshAnswered =
        harshest[c - 1] <= -STRONG_CRITICISM && p[c - 1] + n[c - 1] < 0 && p[c] + n[c] > 0 && !faultedPrice.has(c - 1);
      if (praiseAnswered || harshAnswered) {
        // For the mixed test the two stand side by side (the score still weighs the answer more).
        mix[c - 1] = 1 / weight[c - 1];
        mix[c] = 1 / weight[c];
      } else {
        // "Great work, but it cost a fortune": praise of the work itself is not conceded away; for the mixed
        // test it keeps its whole weight (the score still halves it).
        mix[c - 1] *= praisedWork.has(c - 1) ? 2 : CONCEDED;
      }
    }
  }
  for (const h of hits) {
    if (h.failure) into.failure += h.valence * weight[clauseOf[h.index]];
    if (h.lukewarm) into.lukewarm = true;
    else into.strongestOther = Math.max(into.strongestOther, Math.abs(h.valence));
  }
  for (let c = 0; c < clauseCount; c++) {
    if (verdictClause[c]) into.verdict += (p[c] + n[c]) * weight[c];
    into.positive += p[c] * weight[c];
    into.negative += n[c] * weight[c];
    into.mixPositive += p[c] * weight[c] * mix[c];
    into.mixNegative += n[c] * weight[c] * mix[c];
    const net = p[c] + n[c];
    if (net === 0) continue;
    if (into.positiveClauses + into.negativeClauses === 0) into.firstClause = net;
    into.lastClause = net;
    if (net > 0) into.positiveClauses++;
    else into.negativeClauses++;
  }
}

export function verdict(m: Masses): { score: number; label: Sentiment; overall: Sentiment | "mixed" } {
  const praise = m.failure < 0 ? FAILURE_DISCOUNT : 1;
  // "ok service ok price", "Came, fixed, left. Fine.": lukewarm words with nothing stronger than a bare
  // "fixed" beside them say neither.
  const damp = m.lukewarm && m.strongestOther <= MILD ? LUKEWARM_SHARE : 1;
  const score = normalizeScore((m.positive * praise + m.negative) * damp);
  const label = labelOf(score);
  if (m.verdict !== 0 && labelOf(normalizeScore(m.verdict)) !== "neutral") return { score, label, overall: label };
  if (m.saysMixed) return { score, label, overall: "mixed" };
  const positive = m.mixPositive * praise;
  const weaker = Math.min(positive, -m.mixNegative);
  const mixed = weaker >= MIXED_MIN && weaker >= MIXED_RATIO * Math.max(positive, -m.mixNegative);
  return { score, label, overall: mixed ? "mixed" : label };
}
