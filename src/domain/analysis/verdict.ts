// From opinion hits to the review's verdict: clause weighting for the score ("X but Y": Y carries the
// verdict, so X counts half; "although X" weighs less) and the `mixed` label, given only when praise and
// criticism stand side by side ("Rude receptionist, great technician"), not when one is conceded to the other.
import type { Sentiment } from "../schemas/common.ts";
import { clauseWeight, type Hit, labelOf, normalizeScore, opensContrast } from "./sentiment.ts";
import type { Token } from "./tokenize.ts";

// Mixed: both sides carry at least this much weighted valence and the weaker is at least this share of the other.
const MIXED_MIN = 1.2;
const MIXED_RATIO = 0.5;
// For the mixed test only: a clause a contrast answers ("X, but Y") or a concession opening a sentence
// ("Although X, Y") weighs this much less again.
const CONCEDED = 0.5;

export interface Masses {
  positive: number;
  negative: number;
  mixPositive: number;
  mixNegative: number;
}

export const noMasses = (): Masses => ({ positive: 0, negative: 0, mixPositive: 0, mixNegative: 0 });

/** Adds one part's weighted positive and negative valence to `into`. */
export function addClauseMasses(
  into: Masses,
  hits: readonly Hit[],
  tokens: readonly Token[],
  clauseOf: readonly number[],
  sentenceOf: readonly number[],
  clauseCount: number,
): void {
  const p = new Array<number>(clauseCount).fill(0);
  const n = new Array<number>(clauseCount).fill(0);
  for (const h of hits) {
    if (h.valence > 0) p[clauseOf[h.index]] += h.valence;
    else n[clauseOf[h.index]] += h.valence;
  }
  const first = new Array<number>(clauseCount).fill(-1);
  for (let i = tokens.length - 1; i >= 0; i--) first[clauseOf[i]] = i;
  const weight = new Array<number>(clauseCount).fill(1);
  const mix = new Array<number>(clauseCount).fill(1);
  for (let c = 0; c < clauseCount; c++) {
    if (first[c] < 0) continue;
    const opening = tokens.slice(first[c], first[c] + 2);
    weight[c] *= clauseWeight(opening);
    const opensSentence = c === 0 || first[c - 1] < 0 || sentenceOf[first[c - 1]] !== sentenceOf[first[c]];
    if (opensSentence && weight[c] < 1) mix[c] *= CONCEDED;
    if (c > 0 && opensContrast(opening)) {
      weight[c - 1] /= 2;
      mix[c - 1] *= CONCEDED;
    }
  }
  for (let c = 0; c < clauseCount; c++) {
    into.positive += p[c] * weight[c];
    into.negative += n[c] * weight[c];
    into.mixPositive += p[c] * weight[c] * mix[c];
    into.mixNegative += n[c] * weight[c] * mix[c];
  }
}

export function verdict(m: Masses): { score: number; label: Sentiment; overall: Sentiment | "mixed" } {
  const score = normalizeScore(m.positive + m.negative);
  const label = labelOf(score);
  const weaker = Math.min(m.mixPositive, -m.mixNegative);
  const mixed = weaker >= MIXED_MIN && weaker >= MIXED_RATIO * Math.max(m.mixPositive, -m.mixNegative);
  return { score, label, overall: mixed ? "mixed" : label };
}
