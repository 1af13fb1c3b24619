// The label-combiner experiment (not in the engine): a multinomial logistic regression over the engine's
// findings (label-features.ts) in place of the rules' review-label decision, fitted by full-batch gradient
// descent from zero weights for a fixed number of iterations (the same sets give the same weights anywhere),
// and scored against the rules by leave-one-set-out cross-validation (npm run eval:combiner).

import { labelFeaturesOf } from "../../src/analyze-text.ts";
import { FEATURE_NAMES } from "../../src/label-features.ts";
import { nameWords } from "../../src/mentions.ts";
import { loadEvalBusiness, readEvalFile } from "./eval-files.ts";
import { LABELS, type Label, macroF1Of, parseJsonl } from "./evaluate.ts";
import type { EvalSet } from "./sets.ts";

/** The development sets the combiner is trained on; each is one fold of the cross-validation. */
export const TRAINING_SETS: readonly EvalSet[] = ["dev", "holdout-2", "holdout-3", "frozen", "holdout"];

export interface TrainingConfig {
  /** L2 penalty on the weights (not the biases), per item. */
  lambda: number;
  /** Weigh each class by the inverse of its frequency (macro-F1 counts every class alike). */
  balanced: boolean;
  /** Feature names left out (their weights stay 0). */
  without: readonly string[];
}

export const ITERATIONS = 3000;
const STEP = 0.5;

export interface LabelModel {
  labels: readonly Label[];
  features: readonly string[];
  config: TrainingConfig;
  mean: number[];
  scale: number[];
  /** One row per label: a weight per feature, then the bias. */
  weights: number[][];
}

export interface Example {
  set: EvalSet;
  x: number[];
  y: number;
}

/** Every item of the training sets with its features and gold label index. */
export async function loadExamples(sets: readonly EvalSet[] = TRAINING_SETS): Promise<Example[]> {
  const neutral = nameWords(await loadEvalBusiness());
  const out: Example[] = [];
  for (const set of sets) {
    const items = parseJsonl(await readEvalFile(`${set}.jsonl`), `eval/${set}.jsonl`);
    for (const item of items)
      out.push({ set, x: labelFeaturesOf([item.text], neutral), y: LABELS.indexOf(item.label) });
  }
  return out;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Fits the model; weights and standardisation are rounded to 6 decimals (what the committed file holds). */
export function train(examples: readonly Example[], config: TrainingConfig): LabelModel {
  const f = FEATURE_NAMES.length;
  const k = LABELS.length;
  const used = FEATURE_NAMES.map((n) => !config.without.includes(n));
  const mean = new Array<number>(f).fill(0);
  const scale = new Array<number>(f).fill(1);
  for (let j = 0; j < f; j++) {
    if (!used[j]) continue;
    const xs = examples.map((e) => e.x[j]);
    const m = xs.reduce((s, v) => s + v, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((s, v) => s + (v - m) ** 2, 0) / xs.length);
    mean[j] = round(m);
    scale[j] = sd > 1e-9 ? round(sd) : 1;
  }
  const xs = examples.map((e) => e.x.map((v, j) => (used[j] ? (v - mean[j]) / scale[j] : 0)));
  const counts = new Array<number>(k).fill(0);
  for (const e of examples) counts[e.y]++;
  const classWeight = counts.map((c) => (config.balanced && c > 0 ? examples.length / (k * c) : 1));
  const total = examples.reduce((s, e) => s + classWeight[e.y], 0);
  const w = Array.from({ length: k }, () => new Array<number>(f + 1).fill(0));
  const grad = Array.from({ length: k }, () => new Array<number>(f + 1).fill(0));
  const p = new Array<number>(k).fill(0);
  for (let it = 0; it < ITERATIONS; it++) {
    for (const g of grad) g.fill(0);
    for (let i = 0; i < xs.length; i++) {
      softmax(w, xs[i], p);
      const cw = classWeight[examples[i].y];
      for (let c = 0; c < k; c++) {
        const d = cw * (p[c] - (c === examples[i].y ? 1 : 0));
        const g = grad[c];
        for (let j = 0; j < f; j++) g[j] += d * xs[i][j];
        g[f] += d;
      }
    }
    for (let c = 0; c < k; c++)
      for (let j = 0; j <= f; j++) {
        const penalty = j < f ? config.lambda * w[c][j] : 0;
        w[c][j] -= STEP * (grad[c][j] / total + penalty);
      }
  }
  return {
    labels: LABELS,
    features: FEATURE_NAMES,
    config,
    mean,
    scale,
    weights: w.map((row) => row.map(round)),
  };
}

/** Index in LABELS of the most probable label for the feature vector `x`. */
export function predict(model: LabelModel, x: readonly number[]): number {
  let best = 0;
  let bestZ = -Infinity;
  for (let c = 0; c < model.weights.length; c++) {
    const row = model.weights[c];
    let z = row[x.length];
    for (let j = 0; j < x.length; j++) z += (row[j] * (x[j] - model.mean[j])) / model.scale[j];
    if (z > bestZ) {
      bestZ = z;
      best = c;
    }
  }
  return best;
}

const RULE_LABELS = FEATURE_NAMES.indexOf("rule_positive");

/** Index in LABELS of the label the rules gave (read back from the features' one-hot rule label). */
export function rulesLabel(x: readonly number[]): number {
  if (x[RULE_LABELS]) return LABELS.indexOf("positive");
  if (x[RULE_LABELS + 1]) return LABELS.indexOf("negative");
  if (x[RULE_LABELS + 2]) return LABELS.indexOf("mixed");
  return LABELS.indexOf("neutral");
}

function softmax(w: readonly number[][], x: readonly number[], out: number[]): void {
  let max = -Infinity;
  for (let c = 0; c < w.length; c++) {
    let z = w[c][x.length];
    for (let j = 0; j < x.length; j++) z += w[c][j] * x[j];
    out[c] = z;
    if (z > max) max = z;
  }
  let s = 0;
  for (let c = 0; c < w.length; c++) {
    out[c] = Math.exp(out[c] - max);
    s += out[c];
  }
  for (let c = 0; c < w.length; c++) out[c] /= s;
}

/** Macro-F1 of class indices (positions in LABELS), counted as scripts/eval/evaluate.ts counts it. */
export function macroF1(gold: readonly number[], predicted: readonly number[]): number {
  return macroF1Of(
    gold.map((c) => LABELS[c]),
    predicted.map((c) => LABELS[c]),
  );
}

export interface Fold {
  set: EvalSet;
  items: number;
  rules: number;
  model: number;
}

/** Leave-one-set-out cross-validation: for each set, train on the others and score that set. */
export function crossValidate(examples: readonly Example[], config: TrainingConfig): Fold[] {
  return TRAINING_SETS.map((set) => {
    const test = examples.filter((e) => e.set === set);
    const model = train(
      examples.filter((e) => e.set !== set),
      config,
    );
    const gold = test.map((e) => e.y);
    return {
      set,
      items: test.length,
      rules: macroF1(
        gold,
        test.map((e) => rulesLabel(e.x)),
      ),
      model: macroF1(
        gold,
        test.map((e) => predict(model, e.x)),
      ),
    };
  });
}
