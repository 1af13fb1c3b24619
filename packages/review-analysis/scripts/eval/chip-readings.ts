// The chips the engine gives on text its models have not learned from, for the chip verifier
// (scripts/eval/chip-verifier.ts): every labelled file read by the engine with models that did not learn from it.
// - Files the models learn from (LABELLED_SETS): leave-files-out. The text model of a file is the one trained on
//   every other file (loadLayerItems); the review model's combiner and the aspect layer are trained on every
//   file outside the file's group (`groups` groups of files, every group one fold), as the engine's are trained.
// - Spent sets the committed models never learned from (NOT_LEARNED): the committed models.
// Each praising or criticising chip keeps the verifier's features, the hand-written rules' verdict and whether
// the clause rules gave the aspect the same polarity; neutral chips are kept as shown (they contradict no writer).
import { chipReadings, type EngineModels } from "../../src/analyze-text.ts";
import { aspectLayer, loadAspectLayer } from "../../src/aspect-layer.ts";
import { nameWords } from "../../src/mentions.ts";
import { loadReviewModel, reviewModel } from "../../src/review-model.ts";
import type { Catalog } from "../../src/vocabulary.ts";
import { CHOSEN_LAYER, type LayerItem, loadLayerItems, trainLayer } from "./aspect-layer.ts";
import type { LabelledItem } from "./evaluate.ts";
import { NOT_LEARNED } from "./sets.ts";
import {
  CHOSEN,
  type Example,
  LABELLED_SETS,
  type ModelSet,
  modelFile,
  type TextModel,
  train,
  UNTUNED,
} from "./text-model.ts";

export interface ChipRow {
  aspect: string;
  polarity: string;
  /** The verifier's features (CHIP_FEATURES); absent for a neutral chip. */
  x?: number[];
  /** The hand-written rules abstain from it. */
  abstained?: boolean;
  /** The clause rules gave the aspect this polarity (the aspect layer agrees with them). */
  agreed?: boolean;
}

/** One labelled review and the chips the engine gave it, out of sample. */
export interface ChipItem {
  set: ModelSet;
  labels: Record<string, string>;
  chips: ChipRow[];
}

const LABELS = ["positive", "neutral", "negative", "mixed"];

/** The chips of some items under some models. */
export function readChips(
  models: EngineModels,
  items: readonly { set: ModelSet; item: LabelledItem }[],
  neutral: ReadonlySet<string>,
) {
  return items.map(({ set, item }): ChipItem => {
    const { analysis, chips } = chipReadings(models, [item.text], neutral);
    return {
      set,
      labels: { ...(item.aspects ?? {}) },
      chips: analysis.aspects.map((a) => {
        const read = chips.get(a);
        if (!read) return { aspect: a.aspect, polarity: a.polarity };
        const agreed = analysis.rules.some((m) => m.aspect === a.aspect && m.polarity === a.polarity);
        return {
          aspect: a.aspect,
          polarity: a.polarity,
          x: read.features,
          abstained: read.abstentions.size > 0,
          agreed,
        };
      }),
    };
  });
}

/** The groups of files the combiner and the layer leave out in turn: `groups` groups, files dealt in turn. */
export function fileGroups(sets: readonly ModelSet[], groups: number): ModelSet[][] {
  const out: ModelSet[][] = Array.from({ length: Math.min(groups, sets.length) }, () => []);
  sets.forEach((s, i) => {
    out[i % out.length].push(s);
  });
  return out;
}

/** Every labelled file's chips, each read by models that did not learn from it (see the header). */
export async function loadChipItems(business: Catalog, groups: number, log: (line: string) => void = () => {}) {
  const neutral = nameWords(business);
  const textModels = new Map<ModelSet, TextModel>();
  const t0 = performance.now();
  const items = await loadLayerItems(business, LABELLED_SETS, (set, model) => textModels.set(set, model));
  log(`${items.length} items read, text models trained (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  const out: ChipItem[] = [];
  const sets = [...new Set(items.map((x) => x.set))];
  for (const group of fileGroups(sets, groups)) {
    const t1 = performance.now();
    const rest = items.filter((x) => !group.includes(x.set));
    const combiner = trainCombiner(rest);
    const layerFile = trainLayer(rest, CHOSEN_LAYER, reviewLayerPresence());
    for (const set of group) {
      const text = textModels.get(set);
      if (!text) throw new Error(`no text model for ${set}`);
      const review = loadReviewModel(modelFile({ text, combiner }, {}));
      const layer = loadAspectLayer(layerFile, review);
      const test = items.filter((x) => x.set === set).map((x) => ({ set, item: x.item }));
      out.push(...readChips({ review, layer }, test, neutral));
    }
    log(`  ${group.join(", ")}: ${((performance.now() - t1) / 1000).toFixed(0)} s`);
  }
  const committed = { review: reviewModel(), layer: aspectLayer(reviewModel()) };
  const unseen = Object.keys(NOT_LEARNED) as ModelSet[];
  const { loadLabelled } = await import("./text-model.ts");
  out.push(...readChips(committed, await loadLabelled(unseen), neutral));
  return out;
}

/** The engine's presence thresholds (the committed layer's), which a fold's layer keeps. */
function reviewLayerPresence() {
  return aspectLayer(reviewModel()).presence;
}

/** The review model's combiner over some items, as trainStacked trains it (their inputs are out of their file). */
function trainCombiner(items: readonly LayerItem[]): TextModel {
  const tuned = CHOSEN.tunedWeight ?? 0;
  const examples: Example[] = items.map((x) => ({
    set: x.set,
    dense: [...x.inputs],
    sparse: { index: new Int32Array(0), value: new Float64Array(0) },
    y: LABELS.indexOf(x.item.label),
    rules: 0,
    weight: UNTUNED.includes(x.set) ? 1 : tuned,
  }));
  return train(examples, { ...CHOSEN, lambda: CHOSEN.combinerLambda ?? 1e-3, iterations: 300 });
}
