// The aspect-model experiment of issue 18 (npm run eval:aspects), its training half: one multinomial logistic
// regression shared by the nine aspects (aspect-features.ts: features conjoined with the aspect), fitted by the
// text model's trainer (text-model.ts: L2 penalty, full-batch Adam from zero weights, fixed iterations, items in
// file order, no randomness), scored against the rules by leave-one-writer-out cross-validation over the text
// model's folds, with evaluate.ts's own count of aspect polarity accuracy (all, and in reviews mixing
// polarities) and the precision of the aspects given.
import { analyzeByRules, type TextAnalysis } from "../../src/domain/analysis/analyze-text.ts";
import { nameWords } from "../../src/domain/analysis/mentions.ts";
import type { SparseVector } from "../../src/domain/analysis/text-features.ts";
import { ASPECTS } from "../../src/domain/schemas/common.ts";
import type { BusinessContent } from "../../src/domain/schemas/content.ts";
import {
  ASPECT_CLASSES,
  ASPECT_MODEL_VERSION,
  type AspectFeatureConfig,
  type AspectModel,
  aspectFeatures,
  aspectsWithModel,
  candidates,
  prepareAspectModel,
} from "./aspect-features.ts";
import { evaluate, type LabelledItem, type Prediction } from "./evaluate.ts";
import { type Example, FOLDS, loadLabelled, MODEL_SETS, type ModelSet, train, UNTUNED } from "./text-model.ts";

export interface AspectModelConfig extends AspectFeatureConfig {
  /** L2 penalty per item on every weight but the biases. */
  lambda: number;
  iterations: number;
  /** Weight of each example from a file the rules were tuned on (the untuned files, UNTUNED, weigh 1). */
  tunedWeight?: number;
}

/** One labelled review with the rules' analysis of it. */
export interface AspectItem {
  set: ModelSet;
  item: LabelledItem;
  rules: TextAnalysis;
}

/** The labelled files (the text model's, MODEL_SETS; a file not yet written is skipped), analysed by the rules. */
export async function loadAspectItems(
  business: BusinessContent,
  sets: readonly ModelSet[] = MODEL_SETS,
): Promise<AspectItem[]> {
  const neutral = nameWords(business);
  return (await loadLabelled(sets)).map(({ set, item }) => ({
    set,
    item,
    rules: analyzeByRules([item.text], neutral),
  }));
}

/** The gold class of each aspect of an item (ASPECTS order). */
export const goldClasses = (item: LabelledItem): number[] =>
  ASPECTS.map((a) => ASPECT_CLASSES.indexOf(item.aspects?.[a] ?? "absent"));

/**
 * The training examples of some items: one per aspect, only those the rules found unless the model may add
 * aspects (then all nine).
 */
export function aspectExamples(items: readonly AspectItem[], config: AspectModelConfig): Example[] {
  const tuned = config.tunedWeight ?? 1;
  const out: Example[] = [];
  for (const it of items) {
    const only = candidates(it.rules, config);
    const vectors = aspectFeatures([it.item.text], it.rules, config, only);
    const gold = goldClasses(it.item);
    ASPECTS.forEach((_, a) => {
      if (!only[a]) return;
      const weight = UNTUNED.includes(it.set) ? 1 : tuned;
      out.push({ set: it.set, dense: [], sparse: vectors[a] as SparseVector, y: gold[a], rules: 0, weight });
    });
  }
  return out;
}

/** Trains the model on some items (weights rounded to 4 decimals, what the committed file holds). */
export function trainAspectModel(items: readonly AspectItem[], config: AspectModelConfig): AspectModel {
  const m = train(aspectExamples(items, config), { ...config, rules: "none", balanced: false });
  return { version: ASPECT_MODEL_VERSION, classes: ASPECT_CLASSES, config, bias: m.bias, sparse: m.sparse };
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
  /** Share of the aspects given that are labelled with that polarity. */
  precision: number;
  aspects: number;
}

/** evaluate.ts's aspect figures for these predictions (review label and technicians are the rules'). */
export function scoreAspects(
  items: readonly AspectItem[],
  aspects: readonly (readonly { aspect: string; polarity: "positive" | "negative" | "neutral" }[])[],
  business: BusinessContent,
): AspectScore {
  const predictor = (_item: LabelledItem, i: number): Prediction => ({
    overall: items[i].rules.overall,
    record: items[i].rules.sentiment.label,
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
  };
}

export interface AspectFold {
  set: ModelSet;
  items: number;
  rules: AspectScore;
  model: AspectScore;
}

/** Leave-one-writer-out: for each fold, train on every other file (dev-check always trains) and score it. */
export function crossValidateAspects(
  items: readonly AspectItem[],
  config: AspectModelConfig,
  business: BusinessContent,
  folds: readonly ModelSet[] = FOLDS,
): AspectFold[] {
  return folds
    .filter((set) => items.some((x) => x.set === set))
    .map((set) => {
      const test = items.filter((x) => x.set === set);
      const prepared = prepareAspectModel(
        trainAspectModel(
          items.filter((x) => x.set !== set),
          config,
        ),
      );
      return {
        set,
        items: test.length,
        rules: scoreAspects(
          test,
          test.map((x) => x.rules.aspects),
          business,
        ),
        model: scoreAspects(
          test,
          test.map((x) => aspectsWithModel([x.item.text], x.rules, prepared)),
          business,
        ),
      };
    });
}
