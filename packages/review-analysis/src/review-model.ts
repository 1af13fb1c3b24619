// The review-label model: a stacked logistic regression, trained by npm run eval:model -- --write
// (scripts/eval/text-model.ts) and read from model/review-label.json. A text model scores the review's hashed
// words (text-features.ts); a combiner weighs its log-probabilities with the rules' findings (label-features.ts)
// into the four review labels. The file holds sorted bucket ids and flat weight arrays; loading builds a
// bucket → row index (a bitmap with running counts: 64 KB for 2^18 buckets) so that scoring a review is array
// look-ups only, in tables small enough to stay in cache beside the rules'.

import {
  type BucketRows,
  bucketRows,
  tenThousandths as exactWeights,
  finiteNumbers,
  rowOf,
  WEIGHT_UNIT,
} from "./bucket-rows.ts";
import { FEATURE_NAMES } from "./label-features.ts";
import modelFile from "./model/review-label.json" with { type: "json" };
import { LABEL_THRESHOLD } from "./sentiment.ts";
import { type TextFeatureConfig, textBuckets } from "./text-features.ts";
import type { Sentiment } from "./vocabulary.ts";

/** The model version this engine reads (bump it, and retrain, when the features, the training or the files change). */
export const REVIEW_MODEL_VERSION = "review-label-text-model@0.6.0";
export const REVIEW_LABELS = ["positive", "neutral", "negative", "mixed"] as const;
export type ReviewLabel = (typeof REVIEW_LABELS)[number];
/** The combiner's inputs: the rules' findings, then the text model's log-probability of each label. */
export const COMBINER_FEATURES: readonly string[] = [...FEATURE_NAMES, ...REVIEW_LABELS.map((l) => `text_${l}`)];

/** The file's form (model/review-label.json). Weights are label-major per bucket (text) or per label (combiner). */
export interface ReviewModelFile {
  version: string;
  labels: readonly string[];
  /** Each file the model learned from, with its sha256. */
  files: Record<string, string>;
  /** The training settings (for the record; scoring reads `text.features`). */
  training: Record<string, unknown>;
  text: { features: TextFeatureConfig; bias: number[]; buckets: number[]; weights: number[] };
  combiner: { features: string[]; mean: number[]; scale: number[]; bias: number[]; weights: number[] };
}

export interface ReviewModel {
  version: string;
  files: Readonly<Record<string, string>>;
  features: TextFeatureConfig;
  /** The row of each bucket with weights (bucket-rows.ts). */
  rows: BucketRows;
  textBias: Float64Array;
  /** The text weights in ten-thousandths (the file rounds them to 4 decimals): 16 bits each when they fit. */
  textWeights: Int16Array | Int32Array;
  mean: Float64Array;
  scale: Float64Array;
  combinerBias: Float64Array;
  combinerWeights: Float64Array;
}

const K = REVIEW_LABELS.length;
const F = COMBINER_FEATURES.length;
const MAX_BITS = 24;

function refuse(why: string): never {
  throw new Error(`review-label model: ${why}`);
}

const numbers = (x: unknown, length: number, what: string): Float64Array =>
  finiteNumbers(x, length) ?? refuse(`${what} must be ${length} finite numbers`);

const UNIT = WEIGHT_UNIT;
const NO_NAMES: ReadonlySet<string> = new Set();

/** Weights of 4 decimals as exact integers of ten-thousandths, in the smallest array that holds them. */
function tenThousandths(weights: Float64Array): Int16Array | Int32Array {
  return exactWeights(weights) ?? refuse("text.weights must have at most 4 decimals");
}

/** Checks a parsed model file and builds its scoring tables; another version or shape is refused, saying why. */
export function loadReviewModel(file: unknown): ReviewModel {
  const f = file as Partial<ReviewModelFile>;
  if (typeof f !== "object" || f === null) refuse("not a JSON object");
  if (f.version !== REVIEW_MODEL_VERSION)
    refuse(`version ${JSON.stringify(f.version)}, this engine reads ${REVIEW_MODEL_VERSION} (retrain or bump it)`);
  if (JSON.stringify(f.labels) !== JSON.stringify(REVIEW_LABELS))
    refuse(`labels ${JSON.stringify(f.labels)}, expected ${JSON.stringify(REVIEW_LABELS)}`);
  if (JSON.stringify(f.combiner?.features) !== JSON.stringify(COMBINER_FEATURES))
    refuse(`combiner features must be ${COMBINER_FEATURES.join(", ")}`);
  const features = f.text?.features;
  if (!features || !Number.isInteger(features.bits) || features.bits < 1 || features.bits > MAX_BITS)
    refuse(`text.features.bits must be an integer from 1 to ${MAX_BITS}`);
  const buckets = f.text?.buckets ?? [];
  const m = buckets.length;
  const rows = bucketRows(buckets, features.bits) ?? refuse("text.buckets must be increasing bucket ids below 2^bits");
  return {
    version: f.version,
    files: { ...(f.files ?? {}) },
    features: {
      bits: features.bits,
      bigrams: Boolean(features.bigrams),
      chars: Boolean(features.chars),
      negationScope: Number(features.negationScope) || 0,
    },
    rows,
    textBias: numbers(f.text?.bias, K, "text.bias"),
    textWeights: tenThousandths(numbers(f.text?.weights, m * K, "text.weights (one row per bucket)")),
    mean: numbers(f.combiner?.mean, F, "combiner.mean"),
    scale: numbers(f.combiner?.scale, F, "combiner.scale"),
    combinerBias: numbers(f.combiner?.bias, K, "combiner.bias"),
    combinerWeights: numbers(f.combiner?.weights, K * F, "combiner.weights"),
  };
}

export interface ModelVerdict {
  /** The argmax of the four labels. */
  overall: ReviewLabel;
  /** The most probable of positive, neutral and negative. */
  label: Sentiment;
  /**
   * P(positive) − P(negative), moved into the band `labelOf` gives `label` (above 0.1, within ±0.1, below
   * −0.1) and rounded to 3 decimals: the record's score never contradicts its label.
   */
  score: number;
}

// Scratch space of scoring, reused (one review at a time): the combiner's input and the labels' scores.
const scratch = { x: new Float64Array(F), z: new Float64Array(K) };

/**
 * The text model's log-probabilities of the labels, written after the rules' findings in `x` (the training's
 * scoring, scripts/eval/text-model.ts `scores`, up to the last bits of a float).
 */
function textLogProbabilities(model: ReviewModel, buckets: Int32Array, x: Float64Array): void {
  const v = buckets.length ? 1 / Math.sqrt(buckets.length) : 0;
  // Integer sums of the rows (exact), then scaled: the same figures as summing the weights one by one.
  const z = scratch.z;
  z.fill(0);
  const { textWeights } = model;
  for (let j = 0; j < buckets.length; j++) {
    const r = rowOf(model.rows, buckets[j]);
    if (r < 0) continue;
    const o = r * K;
    for (let c = 0; c < K; c++) z[c] += textWeights[o + c];
  }
  for (let c = 0; c < K; c++) z[c] = model.textBias[c] + (z[c] / UNIT) * v;
  let max = -Infinity;
  for (let c = 0; c < K; c++) if (z[c] > max) max = z[c];
  let total = 0;
  for (let c = 0; c < K; c++) total += Math.exp(z[c] - max);
  const log = Math.log(total) + max;
  for (let c = 0; c < K; c++) x[FEATURE_NAMES.length + c] = z[c] - log;
}

function inBand(label: Sentiment, x: number): number {
  // `|| 0`: a tiny negative rounds to -0, which JSON (and so a worker's answer) writes as 0.
  const r = Math.round(x * 1000) / 1000 || 0;
  const edge = LABEL_THRESHOLD + 0.001;
  if (label === "positive") return Math.max(r, edge);
  if (label === "negative") return Math.min(r, -edge);
  return Math.min(LABEL_THRESHOLD, Math.max(-LABEL_THRESHOLD, r));
}

/**
 * The model's labels of a review from the rules' findings (FEATURE_NAMES order) and its parts' text, the words in
 * `neutral` (the business's names) left out of the text's features.
 */
export function modelVerdict(
  model: ReviewModel,
  findings: readonly number[],
  parts: readonly string[],
  neutral?: ReadonlySet<string>,
): ModelVerdict {
  return verdictOfBuckets(model, findings, textBuckets(parts, model.features, neutral ?? NO_NAMES));
}

/**
 * modelVerdict from the text's buckets (textBuckets of the model's features), hashed once by the caller, which
 * may read the combiner's inputs (COMBINER_FEATURES order) from `inputs` afterwards (filled when given).
 */
export function verdictOfBuckets(
  model: ReviewModel,
  findings: readonly number[],
  buckets: Int32Array,
  inputs?: Float64Array,
): ModelVerdict {
  const x = scratch.x;
  for (let j = 0; j < FEATURE_NAMES.length; j++) x[j] = findings[j];
  textLogProbabilities(model, buckets, x);
  if (inputs) inputs.set(x);
  const z = scratch.z;
  let best = 0;
  for (let c = 0; c < K; c++) {
    let t = model.combinerBias[c];
    const o = c * F;
    for (let j = 0; j < F; j++) t += (model.combinerWeights[o + j] * (x[j] - model.mean[j])) / model.scale[j];
    z[c] = t;
    if (t > z[best]) best = c;
  }
  const pos = REVIEW_LABELS.indexOf("positive");
  const neu = REVIEW_LABELS.indexOf("neutral");
  const neg = REVIEW_LABELS.indexOf("negative");
  const label: Sentiment = z[pos] >= z[neu] && z[pos] >= z[neg] ? "positive" : z[neg] > z[neu] ? "negative" : "neutral";
  let total = 0;
  for (let c = 0; c < K; c++) total += Math.exp(z[c] - z[best]);
  const p = (c: number) => Math.exp(z[c] - z[best]) / total;
  return { overall: REVIEW_LABELS[best], label, score: inBand(label, p(pos) - p(neg)) };
}

let loaded: ReviewModel | undefined;
/**
 * The engine's model, loaded from model/review-label.json on first use (not on import, so that retraining after a
 * version bump can import the engine whose file it is about to replace).
 */
export function reviewModel(): ReviewModel {
  loaded ??= loadReviewModel(modelFile);
  return loaded;
}
