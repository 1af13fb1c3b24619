// The training half of the engine's aspect layer (src/aspect-layer.ts, npm run eval:aspects): the
// labelled files read as the engine reads a review (its buckets, the review model's combiner inputs, the rules'
// aspects), a trainer (per aspect a four-way logistic regression with the absent class's score at 0; L2 penalty,
// full-batch Adam from zero weights for a fixed number of iterations over the items in file order: no randomness,
// the same files give the same weights), leave-one-writer-out cross-validation (folds = files) scored exactly as
// npm run eval counts, and the choice of the presence thresholds by that cross-validation.
//
// The combiner inputs' text log-probabilities of a training item come from a text model that did not learn from
// its file (as the review model's own combiner learns them, text-model.ts trainStacked): on a new review the
// engine's text model has not seen it either.
import { ruleAnalysis } from "../../src/analyze-text.ts";
import {
  ASPECT_CLASSES,
  ASPECT_DENSE,
  ASPECT_LAYER_VERSION,
  ASPECT_POLARITIES,
  type AspectLayerFile,
  type AspectMention,
  type LocalGroups,
  layerAspects,
  loadAspectLayer,
  localBuckets,
} from "../../src/aspect-layer.ts";
import { FEATURE_NAMES } from "../../src/label-features.ts";
import { nameWords } from "../../src/mentions.ts";
import { COMBINER_FEATURES } from "../../src/review-model.ts";
import type { Span } from "../../src/segment.ts";
import { lastBucketPlaces, type SparseVector, textBuckets, textFeatures } from "../../src/text-features.ts";
import { ASPECTS, type Catalog } from "../../src/vocabulary.ts";
import { adam } from "./adam.ts";
import { readEvalFile } from "./eval-files.ts";
import { evaluate, type LabelledItem, type Prediction, sha256 } from "./evaluate.ts";
import {
  CHOSEN,
  type Example,
  LABELLED_SETS,
  loadLabelled,
  logProbabilities,
  type ModelSet,
  type TextModel,
  TRAIN_SETS,
  train,
} from "./text-model.ts";

/** Files the rules were never tuned on: the folds whose mean decides, and the items that weigh 1 in training. */
export const UNTUNED_FOLDS: readonly ModelSet[] = [...TRAIN_SETS, "holdout-6", "holdout-7", "holdout-8"];
export const UNTUNED_ITEMS = new Set<ModelSet>(["dev-check", ...UNTUNED_FOLDS]);

export interface LayerConfig {
  /** L2 penalty per item on every weight but the biases. */
  lambda: number;
  iterations: number;
  /** Weight of an item from a file the rules were tuned on (the others weigh 1). */
  tunedWeight: number;
  /** Weight of an aspect labelled present (any polarity) against one labelled absent. */
  presentWeight: number;
  /** A bucket gets weights when this many training reviews have it. */
  minCount: number;
}

// The setting chosen by the cross-validation (README, "Sentiment evaluation").
export const CHOSEN_LAYER: LayerConfig = {
  lambda: 3e-5,
  iterations: 150,
  tunedWeight: 0.3,
  presentWeight: 2,
  minCount: 2,
};

/** One labelled review read as the engine reads it. */
export interface LayerItem {
  set: ModelSet;
  item: LabelledItem;
  text: string;
  /** The rules' aspects and each part's clauses (ruleAnalysis: the engine's). */
  rules: AspectMention[];
  clauses: Span[][];
  /** The rules' review-label features (FEATURE_NAMES order) and the rules' own labels, for scoring. */
  features: number[];
  /** The review's buckets and their value (the review model's). */
  sparse: SparseVector;
  /** Each aspect's local words (localBuckets: the engine's). */
  local: LocalGroups;
  /** The combiner inputs (COMBINER_FEATURES), the text log-probabilities from a model that did not see the file. */
  inputs: Float64Array;
  /** Gold class per aspect (ASPECTS order; an index into ASPECT_CLASSES). */
  gold: number[];
}

/** The local words of each aspect of a text (a copy of localBuckets, from the engine's hashing pass). */
export function localGroupsOf(
  text: string,
  clauses: readonly (readonly Span[])[],
  rules: readonly AspectMention[],
  neutral: ReadonlySet<string> = new Set(),
): LocalGroups {
  textBuckets([text], CHOSEN, neutral, true);
  const groups = localBuckets({ clauses, places: lastBucketPlaces(), rules });
  return { start: groups.start.slice(), buckets: groups.buckets.slice(0, groups.start[ASPECTS.length]) };
}

/** The folds of the cross-validation: every file the layer learns from but dev-check (too small: it always trains). */
export const LAYER_FOLDS: readonly ModelSet[] = LABELLED_SETS.filter((s) => s !== "dev-check");

/** Every labelled file that exists (LABELLED_SETS), read as the engine reads it, with out-of-file text inputs. */
export async function loadLayerItems(
  business: Catalog,
  sets: readonly ModelSet[] = LABELLED_SETS,
  onTextModel: (set: ModelSet, model: TextModel) => void = () => {},
) {
  const neutral = nameWords(business);
  const labelled = await loadLabelled(sets);
  const items: LayerItem[] = labelled.map(({ set, item }) => {
    const { aspects, clauses, features } = ruleAnalysis([item.text], neutral);
    return {
      set,
      item,
      text: item.text,
      rules: aspects,
      clauses,
      features,
      sparse: textFeatures([item.text], CHOSEN, neutral),
      local: localGroupsOf(item.text, clauses, aspects, neutral),
      inputs: new Float64Array(COMBINER_FEATURES.length),
      gold: ASPECTS.map((a) => ASPECT_CLASSES.indexOf(item.aspects?.[a] ?? "absent")),
    };
  });
  const textConfig = { ...CHOSEN, rules: "none" as const };
  const example = (x: LayerItem): Example => ({ set: x.set, dense: x.features, sparse: x.sparse, y: 0, rules: 0 });
  for (const set of new Set(items.map((x) => x.set))) {
    const outside = items.filter((x) => x.set !== set);
    const model = train(
      outside.map((x) => ({ ...example(x), y: ["positive", "neutral", "negative", "mixed"].indexOf(x.item.label) })),
      textConfig,
    );
    onTextModel(set, model);
    for (const x of items)
      if (x.set === set) {
        x.inputs.set(x.features);
        x.inputs.set(logProbabilities(model, example(x)), FEATURE_NAMES.length);
      }
  }
  return items;
}

const C = ASPECT_POLARITIES.length;
const A = ASPECTS.length;
const ROW = A * C;
const D = ASPECT_DENSE.length;
const FLAGS = ASPECT_POLARITIES.length;
const SHARED = COMBINER_FEATURES.length;
const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;

/** Trains the layer on some items (see the header): the engine's file form, presence thresholds as given. */
export function trainLayer(
  items: readonly LayerItem[],
  config: LayerConfig,
  presence: AspectLayerFile["presence"] = { found: 0, added: 0.5 },
): AspectLayerFile {
  const n = items.length;
  const mean = Array.from({ length: SHARED }, (_, j) => round(items.reduce((s, x) => s + x.inputs[j], 0) / n, 6));
  const scale = mean.map((m, j) => {
    const sd = Math.sqrt(items.reduce((s, x) => s + (x.inputs[j] - m) ** 2, 0) / n);
    return sd > 1e-9 ? round(sd, 6) : 1;
  });
  // Each item's dense inputs per aspect: the rules' flags of the aspect, then the shared inputs standardised.
  const dense = items.map((x) => {
    const d = new Float64Array(A * D);
    for (const m of x.rules) d[ASPECTS.indexOf(m.aspect) * D + ASPECT_POLARITIES.indexOf(m.polarity)] = 1;
    for (let a = 0; a < A; a++)
      for (let j = 0; j < SHARED; j++) d[a * D + FLAGS + j] = (x.inputs[j] - mean[j]) / scale[j];
    return d;
  });
  // Buckets of at least minCount reviews, compacted into 0..m-1 (in bucket order).
  const counts = new Map<number, number>();
  for (const x of items) for (const b of x.sparse.index) counts.set(b, (counts.get(b) ?? 0) + 1);
  const kept = [...counts].filter(([, c]) => c >= config.minCount).map(([b]) => b);
  kept.sort((a, b) => a - b);
  const slot = new Map(kept.map((b, i) => [b, i]));
  const xs = items.map((x) => {
    const s: number[] = [];
    for (const b of x.sparse.index) {
      const at = slot.get(b);
      if (at !== undefined) s.push(at);
    }
    return Int32Array.from(s);
  });
  const vs = items.map((x) => (x.sparse.index.length ? 1 / Math.sqrt(x.sparse.index.length) : 0));
  const m = kept.length;
  // The local words' buckets of at least minCount reviews, compacted the same way; per item and aspect their slots.
  const localCounts = new Map<number, number>();
  for (const x of items) for (const b of new Set(x.local.buckets)) localCounts.set(b, (localCounts.get(b) ?? 0) + 1);
  const localKept = [...localCounts].filter(([, c]) => c >= config.minCount).map(([b]) => b);
  localKept.sort((a, b) => a - b);
  const localSlot = new Map(localKept.map((b, i) => [b, i]));
  const locals = items.map((x) =>
    ASPECTS.map((_, a) => {
      const group = x.local.buckets.subarray(x.local.start[a], x.local.start[a + 1]);
      const slots: number[] = [];
      for (const b of group) {
        const at = localSlot.get(b);
        if (at !== undefined) slots.push(at);
      }
      return { slots: Int32Array.from(slots), v: group.length ? 1 / Math.sqrt(group.length) : 0 };
    }),
  );
  // Parameters: [bias ROW][dense ROW*D][sparse m*ROW][local localKept*C]
  const SO = ROW + ROW * D;
  const LO = SO + m * ROW;
  const P = LO + localKept.length * C;
  const w = new Float64Array(P);
  const g = new Float64Array(P);
  const itemWeight = items.map((x) => (UNTUNED_ITEMS.has(x.set) ? 1 : config.tunedWeight));
  const total = itemWeight.reduce((s, x) => s + x, 0);
  const z = new Float64Array(ROW);
  const r = new Float64Array(ROW);
  const optimiser = adam(w, config.lambda, ROW);
  for (let it = 1; it <= config.iterations; it++) {
    g.fill(0);
    for (let i = 0; i < n; i++) {
      const s = xs[i];
      const v = vs[i];
      const d = dense[i];
      for (let k = 0; k < ROW; k++) {
        let t = w[k];
        const a = (k / C) | 0;
        const o = ROW + k * D;
        for (let j = 0; j < D; j++) t += w[o + j] * d[a * D + j];
        z[k] = t;
      }
      for (let j = 0; j < s.length; j++) {
        const o = SO + s[j] * ROW;
        for (let k = 0; k < ROW; k++) z[k] += w[o + k] * v;
      }
      const local = locals[i];
      for (let a = 0; a < A; a++) {
        const { slots, v: u } = local[a];
        for (let j = 0; j < slots.length; j++) {
          const o = LO + slots[j] * C;
          for (let c = 0; c < C; c++) z[a * C + c] += w[o + c] * u;
        }
      }
      const gold = items[i].gold;
      for (let a = 0; a < A; a++) {
        let max = 0;
        for (let c = 0; c < C; c++) if (z[a * C + c] > max) max = z[a * C + c];
        let sum = Math.exp(-max);
        for (let c = 0; c < C; c++) sum += Math.exp(z[a * C + c] - max);
        const weight = (itemWeight[i] * (gold[a] === 0 ? 1 : config.presentWeight)) / total;
        for (let c = 0; c < C; c++)
          r[a * C + c] = weight * (Math.exp(z[a * C + c] - max) / sum - (gold[a] === c + 1 ? 1 : 0));
      }
      for (let k = 0; k < ROW; k++) {
        g[k] += r[k];
        const a = (k / C) | 0;
        const o = ROW + k * D;
        for (let j = 0; j < D; j++) g[o + j] += r[k] * d[a * D + j];
      }
      for (let j = 0; j < s.length; j++) {
        const o = SO + s[j] * ROW;
        for (let k = 0; k < ROW; k++) g[o + k] += r[k] * v;
      }
      for (let a = 0; a < A; a++) {
        const { slots, v: u } = local[a];
        for (let j = 0; j < slots.length; j++) {
          const o = LO + slots[j] * C;
          for (let c = 0; c < C; c++) g[o + c] += r[a * C + c] * u;
        }
      }
    }
    optimiser.step(it, g);
  }
  // Buckets whose every weight rounds to 0 are left out.
  const buckets: number[] = [];
  const weights: number[] = [];
  for (let i = 0; i < m; i++) {
    const row = Array.from({ length: ROW }, (_, k) => round(w[SO + i * ROW + k]));
    if (row.some((x) => x !== 0)) {
      buckets.push(kept[i]);
      weights.push(...row);
    }
  }
  const local = { buckets: [] as number[], weights: [] as number[] };
  for (let i = 0; i < localKept.length; i++) {
    const row = Array.from({ length: C }, (_, c) => round(w[LO + i * C + c]));
    if (row.some((x) => x !== 0)) {
      local.buckets.push(localKept[i]);
      local.weights.push(...row);
    }
  }
  return {
    version: ASPECT_LAYER_VERSION,
    aspects: ASPECTS,
    classes: ASPECT_CLASSES,
    files: {},
    training: { ...config },
    features: { bits: CHOSEN.bits, bigrams: CHOSEN.bigrams, chars: CHOSEN.chars, negationScope: CHOSEN.negationScope },
    dense: { features: [...COMBINER_FEATURES], mean, scale },
    presence,
    bias: Array.from(w.subarray(0, ROW), (x) => round(x)),
    denseWeights: Array.from(w.subarray(ROW, SO), (x) => round(x)),
    buckets,
    weights,
    local,
  };
}

/** The layer's aspects of some items (the engine's path, from the items' own buckets and inputs). */
export function layerPredictions(
  file: AspectLayerFile,
  items: readonly LayerItem[],
  neutral: ReadonlySet<string> = new Set(),
) {
  const layer = loadAspectLayer(file, { features: file.features });
  return items.map((x) => {
    const buckets = textBuckets([x.text], file.features, neutral, true);
    const review = { parts: [x.text], clauses: x.clauses, buckets, places: lastBucketPlaces(), inputs: x.inputs };
    return layerAspects(layer, { ...review, rules: x.rules });
  });
}

/** Distinct (aspect, polarity) pairs given per review and how many of them the review is labelled with. */
export function aspectPrecision(
  items: readonly LabelledItem[],
  predicted: readonly (readonly { aspect: string; polarity: string }[])[],
) {
  let total = 0;
  let correct = 0;
  items.forEach((item, i) => {
    for (const pair of new Set(predicted[i].map((m) => `${m.aspect} ${m.polarity}`))) {
      const [aspect, polarity] = pair.split(" ");
      total++;
      if (item.aspects?.[aspect] === polarity) correct++;
    }
  });
  return { total, correct, precision: total === 0 ? 1 : correct / total };
}

export interface AspectScore {
  /** Aspect polarity accuracy over every labelled aspect, and over those of reviews that mix polarities. */
  all: number;
  mixed: number;
  /** Share of the aspects given (distinct aspect and polarity per review) that are labelled with that polarity. */
  precision: number;
  aspects: number;
  given: number;
}

/** npm run eval's aspect figures for these predictions, with the precision of the aspects given. */
export function scoreAspects(
  items: readonly LayerItem[],
  aspects: readonly (readonly { aspect: string; polarity: "positive" | "negative" | "neutral" }[])[],
  business: Catalog,
): AspectScore {
  const predictor = (_item: LabelledItem, i: number): Prediction => ({
    overall: "neutral",
    record: undefined,
    aspects: aspects[i],
    technicians: [],
  });
  const labelled = items.map((x) => x.item);
  const report = evaluate(labelled, business, predictor);
  const p = aspectPrecision(labelled, aspects);
  return {
    all: report.allAspects.accuracy,
    mixed: report.mixedAspects.accuracy,
    precision: p.precision,
    aspects: report.allAspects.total,
    given: p.total,
  };
}

export interface LayerFold {
  set: ModelSet;
  items: number;
  rules: AspectScore;
  /** The layer's score for each presence setting tried (PRESENCE_GRID order). */
  layer: AspectScore[];
}

/** The presence thresholds the cross-validation tries (found, added). */
export const PRESENCE_GRID: readonly AspectLayerFile["presence"][] = [0, 0.1, 0.2, 0.35].flatMap((found) =>
  [0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1].map((added) => ({ found, added })),
);

/** Leave-one-writer-out: for each fold, train on every other file (dev-check always trains) and score it. */
export function crossValidateLayer(
  items: readonly LayerItem[],
  config: LayerConfig,
  business: Catalog,
  folds: readonly ModelSet[],
  log: (line: string) => void = () => {},
): LayerFold[] {
  return folds
    .filter((set) => items.some((x) => x.set === set))
    .map((set) => {
      const test = items.filter((x) => x.set === set);
      const file = trainLayer(
        items.filter((x) => x.set !== set),
        config,
      );
      const fold = {
        set,
        items: test.length,
        rules: scoreAspects(
          test,
          test.map((x) => x.rules),
          business,
        ),
        layer: PRESENCE_GRID.map((presence) =>
          scoreAspects(test, layerPredictions({ ...file, presence }, test, nameWords(business)), business),
        ),
      };
      log(`  ${set} done`);
      return fold;
    });
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Settings whose untuned mean accuracy is within this of the best are as good: the most precise of them wins. */
const AS_GOOD = 0.005;

/**
 * The presence setting of the untuned folds: among those whose mean precision is not below the rules' there (no
 * recall bought with false aspects), the most precise of those within AS_GOOD of the best mean all-aspect
 * accuracy; -1 when none keeps the rules' precision.
 */
export function choosePresence(folds: readonly LayerFold[]): number {
  const honest = folds.filter((f) => UNTUNED_FOLDS.includes(f.set));
  const floor = mean(honest.map((f) => f.rules.precision));
  const all = PRESENCE_GRID.map((_, p) => mean(honest.map((f) => f.layer[p].all)));
  const precision = PRESENCE_GRID.map((_, p) => mean(honest.map((f) => f.layer[p].precision)));
  const allowed = PRESENCE_GRID.map((_, p) => p).filter((p) => precision[p] >= floor);
  if (allowed.length === 0) return -1;
  const best = Math.max(...allowed.map((p) => all[p]));
  return allowed.filter((p) => all[p] >= best - AS_GOOD).reduce((a, b) => (precision[b] > precision[a] ? b : a));
}

/** The engine's layer file: trained on every item, with the sha256 of each file and the chosen presence. */
export async function layerFileText(
  items: readonly LayerItem[],
  config: LayerConfig,
  presence: AspectLayerFile["presence"],
  record: Record<string, unknown>,
): Promise<string> {
  const sets = [...new Set(items.map((x) => x.set))];
  const files = Object.fromEntries(
    await Promise.all(sets.map(async (s) => [s, sha256(await readEvalFile(`${s}.jsonl`))])),
  );
  const file = trainLayer(items, config, presence);
  return `${JSON.stringify({ ...file, files, training: { ...file.training, ...record } })}\n`;
}
