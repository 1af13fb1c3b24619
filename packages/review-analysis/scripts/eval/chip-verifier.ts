// The training half of the chip verifier (src/chip-verifier.ts, npm run eval:chips): a logistic regression over
// the features of the chips the engine gave on text its models had not learned from (chip-readings.ts), whose
// target is "contradicts the writer" (the writer labelled the aspect with the opposite polarity); L2 penalty,
// full-batch Adam from zero weights for a fixed number of iterations over the chips in file order (no randomness).
// Leave-one-writer-out cross-validation: for each writer, the verifier is trained on the other writers' chips and
// its threshold chosen on them alone (by an inner cross-validation over those writers), then the writer's chips
// are scored: contradicting share of the shown chips and recall of the labelled aspects, as npm run eval counts.
import { ABSTENTIONS, type Abstention, CHIP_FEATURES } from "../../src/chip-features.ts";
import { CHIP_VERIFIER_VERSION, type ChipVerifierFile, contradictionProbability } from "../../src/chip-verifier.ts";
import { ASPECTS } from "../../src/vocabulary.ts";
import { adam } from "./adam.ts";
import type { ChipItem, ChipRow } from "./chip-readings.ts";

export interface VerifierConfig {
  lambda: number;
  iterations: number;
  /** The threshold is the lowest whose recall over the training writers (inner cross-validation) reaches this. */
  recallTarget: number;
  /** Reasons of the hand-written chip rules that hide a chip whatever the verifier says. */
  veto: readonly Abstention[];
}

export const CHOSEN_VERIFIER: VerifierConfig = {
  lambda: 1e-3,
  iterations: 200,
  recallTarget: 0.82,
  veto: ["alone_opposite"],
};

/** The sets written by the project itself count as one writer. */
const PROJECT = new Set(["dev", "dev-check", "frozen", "holdout"]);
export const writerOf = (set: string): string => (PROJECT.has(set) ? "project" : set);

const OPPOSITE: Record<string, string> = { positive: "negative", negative: "positive" };
/** Whether a chip says the opposite of the writer's label of its aspect (undefined: the writer labelled none). */
export function contradicts(item: ChipItem, chip: ChipRow): boolean | undefined {
  const gold = item.labels[chip.aspect];
  return gold === undefined ? undefined : OPPOSITE[chip.polarity] === gold;
}

export type Weights = Pick<ChipVerifierFile, "mean" | "scale" | "bias" | "weights">;
const round = (x: number, d = 5) => Math.round(x * 10 ** d) / 10 ** d;

/** Trains the verifier on the labelled praising and criticising chips of some items. */
export function trainVerifier(items: readonly ChipItem[], config: VerifierConfig): Weights {
  const rows: { x: number[]; y: number }[] = [];
  for (const item of items)
    for (const c of item.chips) {
      const y = contradicts(item, c);
      if (c.x && y !== undefined) rows.push({ x: c.x, y: y ? 1 : 0 });
    }
  const f = CHIP_FEATURES.length;
  const n = rows.length;
  const mean = Array.from({ length: f }, (_, j) => round(rows.reduce((s, r) => s + r.x[j], 0) / n, 6));
  const scale = mean.map((m, j) => {
    const sd = Math.sqrt(rows.reduce((s, r) => s + (r.x[j] - m) ** 2, 0) / n);
    return sd > 1e-9 ? round(sd, 6) : 1;
  });
  // One flat row-major array of the standardised features: the loop below is most of the cross-validation's time.
  const xs = new Float64Array(n * f);
  rows.forEach((r, i) => {
    for (let j = 0; j < f; j++) xs[i * f + j] = (r.x[j] - mean[j]) / scale[j];
  });
  const w = new Float64Array(1 + f);
  const g = new Float64Array(1 + f);
  const optimiser = adam(w, config.lambda, 1);
  for (let it = 1; it <= config.iterations; it++) {
    g.fill(0);
    for (let i = 0; i < n; i++) {
      const o = i * f;
      let t = w[0];
      for (let j = 0; j < f; j++) t += w[1 + j] * xs[o + j];
      const r = (1 / (1 + Math.exp(-t)) - rows[i].y) / n;
      g[0] += r;
      for (let j = 0; j < f; j++) g[1 + j] += r * xs[o + j];
    }
    optimiser.step(it, g);
  }
  return { mean, scale, bias: round(w[0]), weights: Array.from(w.subarray(1), (v) => round(v)) };
}

/** Whether a chip is shown: neutral chips always; the others by `show`. */
export type Policy = (chip: ChipRow, item: ChipItem) => boolean;

export interface ChipCounts {
  total: number;
  shown: number;
  contradicting: number;
}

/** npm run eval's chip counts over some items under a policy: all aspects, then per aspect. */
export function chipCounts(items: readonly ChipItem[], show: Policy) {
  const all: ChipCounts = { total: 0, shown: 0, contradicting: 0 };
  const perAspect = Object.fromEntries(ASPECTS.map((a) => [a, { total: 0, shown: 0, contradicting: 0 }])) as Record<
    string,
    ChipCounts
  >;
  for (const item of items)
    for (const [aspect, gold] of Object.entries(item.labels)) {
      const shown = item.chips.filter((c) => c.aspect === aspect && (c.x === undefined || show(c, item)));
      // As evaluate.ts: the chip of the labelled polarity if one is shown, else the first shown.
      const got = shown.find((c) => c.polarity === gold) ?? shown[0];
      for (const t of [all, perAspect[aspect]]) {
        if (!t) continue;
        t.total++;
        if (got) t.shown++;
        if (got && OPPOSITE[got.polarity] === gold) t.contradicting++;
      }
    }
  return { all, perAspect };
}

export const rates = (c: ChipCounts) => ({
  contradicting: c.shown ? c.contradicting / c.shown : 0,
  recall: c.total ? c.shown / c.total : 0,
});

/** Each chip's probability under a verifier, keyed by the chip row. */
export type Scores = Map<ChipRow, number>;

function score(weights: Weights, items: readonly ChipItem[], into: Scores) {
  for (const item of items)
    for (const c of item.chips) if (c.x) into.set(c, contradictionProbability(weightsView(weights), c.x));
}
const views = new WeakMap<Weights, { mean: Float64Array; scale: Float64Array; bias: number; weights: Float64Array }>();
function weightsView(w: Weights) {
  let v = views.get(w);
  if (!v) {
    v = {
      mean: Float64Array.from(w.mean),
      scale: Float64Array.from(w.scale),
      bias: w.bias,
      weights: Float64Array.from(w.weights),
    };
    views.set(w, v);
  }
  return v;
}

const REASON_AT = new Map(ABSTENTIONS.map((r) => [r, CHIP_FEATURES.indexOf(`abstain_${r}`)]));
/** Whether one of these reasons of the hand-written rules abstains from a chip (read from its features). */
export const vetoed = (c: ChipRow, veto: readonly Abstention[]): boolean =>
  veto.some((r) => c.x?.[REASON_AT.get(r) ?? -1] === 1);

const verified =
  (scores: Scores, threshold: number, veto: readonly Abstention[]): Policy =>
  (c) =>
    (scores.get(c) ?? 1) < threshold && !vetoed(c, veto);

/** The lowest threshold whose pooled recall over these items reaches the target (the highest when none does). */
export function chooseThreshold(items: readonly ChipItem[], scores: Scores, config: VerifierConfig): number {
  const candidates = [...new Set([...scores.values()].map((p) => round(p, 4)))].sort((a, b) => a - b);
  // Bisection: recall rises with the threshold.
  let lo = 0;
  let hi = candidates.length - 1;
  const recallAt = (t: number) => rates(chipCounts(items, verified(scores, t, config.veto)).all).recall;
  if (recallAt(candidates[hi] + 1e-4) < config.recallTarget) return 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (recallAt(candidates[mid] + 1e-4) >= config.recallTarget) hi = mid;
    else lo = mid + 1;
  }
  return round(candidates[lo] + 1e-4, 4);
}

const INNER_FOLDS = 3;

/** Out-of-writer scores of some items: each group of writers scored by a verifier trained on the others. */
export function outOfWriterScores(items: readonly ChipItem[], config: VerifierConfig, folds: number): Scores {
  const writers = [...new Set(items.map((x) => writerOf(x.set)))];
  const scores: Scores = new Map();
  const k = Math.min(folds, writers.length);
  for (let f = 0; f < k; f++) {
    const held = new Set(writers.filter((_, i) => i % k === f));
    const weights = trainVerifier(
      items.filter((x) => !held.has(writerOf(x.set))),
      config,
    );
    score(
      weights,
      items.filter((x) => held.has(writerOf(x.set))),
      scores,
    );
  }
  return scores;
}

export interface WriterFold {
  writer: string;
  threshold: number;
}

/**
 * Leave-one-writer-out (see the header): every chip's score from a verifier that did not learn from its writer,
 * and each writer's threshold chosen on the other writers alone.
 */
export function crossValidateVerifier(items: readonly ChipItem[], config: VerifierConfig, log: (l: string) => void) {
  const writers = [...new Set(items.map((x) => writerOf(x.set)))];
  const scores: Scores = new Map();
  const thresholds = new Map<string, number>();
  for (const writer of writers) {
    const rest = items.filter((x) => writerOf(x.set) !== writer);
    const inner = outOfWriterScores(rest, config, INNER_FOLDS);
    const threshold = chooseThreshold(rest, inner, config);
    thresholds.set(writer, threshold);
    score(
      trainVerifier(rest, config),
      items.filter((x) => writerOf(x.set) === writer),
      scores,
    );
    log(`  ${writer}: threshold ${threshold}`);
  }
  const policy: Policy = (c, item) =>
    (scores.get(c) ?? 1) < (thresholds.get(writerOf(item.set)) ?? 0) && !vetoed(c, config.veto);
  return { scores, thresholds, policy };
}

/** The engine's verifier file: trained on every item, with the threshold chosen over every writer's out-of-writer scores. */
export function verifierFile(
  items: readonly ChipItem[],
  config: VerifierConfig,
  threshold: number,
  files: Record<string, string>,
  record: Record<string, unknown>,
): ChipVerifierFile {
  const w = trainVerifier(items, config);
  return {
    version: CHIP_VERIFIER_VERSION,
    files,
    training: { ...config, ...record },
    features: CHIP_FEATURES,
    ...w,
    threshold,
    veto: config.veto,
  };
}

export { verified };
