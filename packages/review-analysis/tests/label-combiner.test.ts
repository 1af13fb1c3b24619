import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { LABELS } from "../scripts/eval/evaluate.ts";
import { type Example, ITERATIONS, macroF1, predict, rulesLabel, train } from "../scripts/eval/label-combiner.ts";
import { labelFeaturesOf } from "../src/analyze-text.ts";
import { FEATURE_NAMES, ratingIn } from "../src/label-features.ts";

const feature = (x: readonly number[], name: (typeof FEATURE_NAMES)[number]) => x[FEATURE_NAMES.indexOf(name)];

describe("label-combiner experiment", () => {
  test("a rating written in the text, as a share of the top of its scale", () => {
    assert.equal(ratingIn("5/5 will do business again"), 1);
    assert.equal(ratingIn("solid 7 out of 10"), 0.7);
    assert.equal(ratingIn("I would give zero stars"), 0);
    assert.equal(ratingIn("A+++ service"), 1);
    assert.equal(ratingIn("called at 7, here by 10"), undefined);
  });

  test("features come from the engine's findings, one per name, and give back the rules' label", () => {
    const mixed = labelFeaturesOf(["Rude receptionist, great technician"]);
    assert.equal(mixed.length, FEATURE_NAMES.length);
    assert.equal(LABELS[rulesLabel(mixed)], "mixed");
    assert.ok(feature(mixed, "weaker_side") > 0);
    const conceded = labelFeaturesOf(["A bit pricey, but the work was excellent. 10/10"]);
    assert.equal(LABELS[rulesLabel(conceded)], "positive");
    assert.equal(feature(conceded, "contrast"), 1);
    assert.equal(feature(conceded, "last_opinion"), 1);
    assert.equal(feature(conceded, "rating_high"), 1);
    const none = labelFeaturesOf(["Had them out for a yearly tune-up?"]);
    assert.equal(feature(none, "no_opinion"), 1);
    assert.equal(feature(none, "question"), 1);
  });

  test("the length counts the words between any whitespace, names (bare, any case) left out", () => {
    const length = (text: string, skip: ReadonlySet<string> = new Set()) =>
      feature(labelFeaturesOf([text], skip), "length");
    const ofWords = (n: number) => Math.log1p(n) / 4;
    // Tabs, newlines, a no-break space, an ideographic space, runs of them, and whitespace at both ends.
    assert.equal(length(" Great\tjob,\n\nfair\u00a0price\u3000— thanks  "), ofWords(6));
    assert.equal(
      length("Marcus fixed it. (Delgado!) marcus-delgado came back", new Set(["marcus", "delgado"])),
      ofWords(5),
    );
    assert.equal(length("“Marcus,” fixed it", new Set(["marcus"])), ofWords(2));
    assert.equal(length(""), 0);
  });

  test("training is deterministic and fits a separable set", () => {
    const width = FEATURE_NAMES.length;
    const at = (y: number, k: number): Example => {
      const x = new Array<number>(width).fill(0);
      x[y] = 1 + k / 10;
      x[width - 1] = k % 3;
      return { set: "dev", x, y };
    };
    const examples = LABELS.flatMap((_, y) => [0, 1, 2, 3].map((k) => at(y, k)));
    const config = { lambda: 0.01, balanced: true, without: [] };
    const a = train(examples, config);
    const b = train(examples, config);
    assert.ok(ITERATIONS > 0);
    assert.deepEqual(a.weights, b.weights);
    assert.deepEqual(
      examples.map((e) => predict(a, e.x)),
      examples.map((e) => e.y),
    );
  });

  test("macro-F1 over the gold labels present", () => {
    assert.equal(macroF1([0, 0, 1, 1], [0, 0, 1, 1]), 1);
    // class 0: tp 1, fp 0, fn 1 -> 2/3; class 1: tp 2, fp 1, fn 0 -> 0.8
    assert.ok(Math.abs(macroF1([0, 0, 1, 1], [0, 1, 1, 1]) - (2 / 3 + 0.8) / 2) < 1e-12);
  });
});
