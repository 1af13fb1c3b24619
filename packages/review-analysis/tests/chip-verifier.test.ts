// The chip verifier: its file is checked as the other models' are, the engine shows a praising or criticising
// chip only below its threshold, and its trainer and cross-validation count chips as npm run eval does.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import type { ChipItem } from "../scripts/eval/chip-readings.ts";
import {
  CHOSEN_VERIFIER,
  chipCounts,
  chooseThreshold,
  crossValidateVerifier,
  outOfWriterScores,
  rates,
  trainVerifier,
  writerOf,
} from "../scripts/eval/chip-verifier.ts";
import { evaluate } from "../scripts/eval/evaluate.ts";
import { analyzeText, analyzeWith, chipReadings } from "../src/analyze-text.ts";
import { aspectLayer } from "../src/aspect-layer.ts";
import { CHIP_FEATURES } from "../src/chip-features.ts";
import { CHIP_VERIFIER_VERSION, chipVerifier, loadChipVerifier } from "../src/chip-verifier.ts";
import { reviewModel } from "../src/review-model.ts";
import type { Aspect, Sentiment } from "../src/vocabulary.ts";

const fileText = () => readFile(new URL("../src/model/chip-verifier.json", import.meta.url), "utf8");

test("the verifier file is the version the engine reads, one weight per feature; another version or shape is refused", async () => {
  const file = JSON.parse(await fileText());
  assert.equal(file.version, CHIP_VERIFIER_VERSION);
  assert.deepEqual(file.features, CHIP_FEATURES);
  assert.equal(chipVerifier().weights.length, CHIP_FEATURES.length);
  assert.throws(() => loadChipVerifier({ ...file, version: "chip-verifier@0.0.1" }), /version .* this engine reads/);
  assert.throws(() => loadChipVerifier({ ...file, features: file.features.slice(1) }), /features must be/);
  assert.throws(() => loadChipVerifier({ ...file, weights: file.weights.slice(1) }), /weights must be/);
  assert.throws(() => loadChipVerifier({ ...file, threshold: 0 }), /threshold/);
  assert.throws(() => loadChipVerifier({ ...file, scale: file.scale.map(() => 0) }), /scale must be positive/);
  assert.throws(() => loadChipVerifier(null), /not a JSON object/);
});

const TEXT =
  "Marcus was friendly and fixed the AC fast, but the office never called back about the bill. The price was fair.";
const review = reviewModel();
const layer = aspectLayer(review);

test("the engine shows a praising or criticising chip only below the verifier's threshold; neutral chips always", () => {
  const committed = chipVerifier();
  const { analysis, chips } = chipReadings({ review, layer, verifier: committed }, [TEXT], new Set());
  assert.ok(chips.size >= 2, "the review has praise and criticism");
  for (const [a, read] of chips) {
    assert.equal(read.features.length, CHIP_FEATURES.length);
    assert.ok(read.contradiction >= 0 && read.contradiction <= 1);
    assert.equal(
      read.shown,
      read.contradiction < committed.threshold && !committed.veto.some((r) => read.abstentions.has(r)),
      a.aspect,
    );
  }
  const shown = analyzeText([TEXT]).aspects;
  assert.deepEqual(
    shown,
    analysis.aspects.filter((a) => chips.get(a)?.shown ?? true),
    "analyzeText shows the chips chipReadings passes",
  );
  const all = analyzeWith({ review, layer, verifier: { ...committed, threshold: 1.01, veto: [] } }, [TEXT], new Set());
  assert.equal(all.aspects.length, analysis.aspects.length, "a threshold above every probability shows every chip");
  const none = analyzeWith({ review, layer, verifier: { ...committed, threshold: 1e-12 } }, [TEXT], new Set());
  assert.ok(
    none.aspects.every((a) => a.polarity === "neutral"),
    "a threshold of nothing shows only neutral chips",
  );
});

/** A chip item: its labels and chips; feature 0 ("praise") carries the signal the trainer should find. */
function item(set: string, labels: Partial<Record<Aspect, Sentiment>>, chips: [Aspect, Sentiment, number][]): ChipItem {
  return {
    set: set as ChipItem["set"],
    labels,
    chips: chips.map(([aspect, polarity, signal]) => ({
      aspect,
      polarity,
      x: polarity === "neutral" ? undefined : CHIP_FEATURES.map((_, j) => (j === 1 ? signal : 0)),
      abstained: false,
      agreed: true,
    })),
  };
}

// In every writer's file: right chips with signal 0, contradicting ones with signal 1, and a neutral chip.
const ITEMS: ChipItem[] = ["train/train-a", "train/train-b", "train/train-c", "dev", "frozen"].flatMap((set) => [
  ...Array.from({ length: 12 }, () =>
    item(set, { speed: "positive", price_value: "negative" }, [
      ["speed", "positive", 0],
      ["price_value", "negative", 0],
    ]),
  ),
  item(set, { speed: "negative" }, [["speed", "positive", 1]]),
  item(set, { cleanliness: "positive" }, [["cleanliness", "neutral", 0]]),
  item(set, { workmanship: "positive" }, []),
]);

test("chip counts are npm run eval's: labelled aspects, those shown, and shown ones of the opposite polarity", () => {
  const show = () => true;
  const ours = chipCounts(ITEMS, show).all;
  const report = evaluate(
    ITEMS.map((x) => ({ text: "x", label: "mixed", aspects: x.labels as Record<string, Sentiment> })),
    { name: "x", technicians: [], services: [], service_areas: [] },
    (_item, i) => ({
      overall: "mixed",
      record: undefined,
      aspects: ITEMS[i].chips as { aspect: string; polarity: Sentiment }[],
      technicians: [],
    }),
  );
  let missing = 0;
  let contradicting = 0;
  for (const t of Object.values(report.perAspect)) {
    for (const row of Object.values(t.confusion)) missing += row.missing ?? 0;
    contradicting += (t.confusion.positive?.negative ?? 0) + (t.confusion.negative?.positive ?? 0);
  }
  assert.equal(ours.total, report.allAspects.total);
  assert.equal(ours.shown, report.allAspects.total - missing);
  assert.equal(ours.contradicting, contradicting);
  assert.equal(ours.contradicting, 5);
});

test("the verifier learns which chips contradict; its threshold reaches the recall asked on the training writers", () => {
  const weights = trainVerifier(ITEMS, CHOSEN_VERIFIER);
  assert.ok(weights.weights[1] > 0, "the signal raises the probability of contradicting");
  const scores = outOfWriterScores(ITEMS, CHOSEN_VERIFIER, 5);
  const threshold = chooseThreshold(ITEMS, scores, { ...CHOSEN_VERIFIER, recallTarget: 0.8 });
  const shown = chipCounts(ITEMS, (c) => (scores.get(c) ?? 1) < threshold).all;
  assert.ok(rates(shown).recall >= 0.8, JSON.stringify(shown));
  assert.equal(shown.contradicting, 0, "the contradicting chips are the ones held back");
  assert.equal(writerOf("dev"), writerOf("frozen"), "the project's own sets are one writer");
  const cv = crossValidateVerifier(ITEMS, CHOSEN_VERIFIER, () => {});
  assert.deepEqual([...cv.thresholds.keys()], ["train/train-a", "train/train-b", "train/train-c", "project"]);
  assert.equal(chipCounts(ITEMS, cv.policy).all.contradicting, 0);
});
