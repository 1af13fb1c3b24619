import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import { readEvalFile } from "../../scripts/eval/eval-files.ts";
import { LABELS, parseJsonl, sha256 } from "../../scripts/eval/evaluate.ts";
import { labelFeaturesOf } from "../../scripts/eval/label-features.ts";
import { fnv1a, textFeatureNames, textFeatures, textTokens } from "../../scripts/eval/text-features.ts";
import {
  accuracy,
  classF1,
  type Example,
  MODEL_SETS,
  MODEL_VERSION,
  type ModelConfig,
  predict,
  predictStacked,
  type StackedModel,
  type TextModel,
  train,
} from "../../scripts/eval/text-model.ts";

const FEATURES = { bits: 12, bigrams: true, chars: false, negationScope: 3 };
const CONFIG: ModelConfig = { ...FEATURES, lambda: 1e-4, rules: "all", balanced: false, iterations: 60 };

const example = (text: string, label: (typeof LABELS)[number]): Example => ({
  set: "dev",
  dense: labelFeaturesOf([text]),
  sparse: textFeatures([text], FEATURES),
  y: LABELS.indexOf(label),
  rules: 0,
});

const EXAMPLES = [
  example("great job, fast and friendly", "positive"),
  example("loved the tech, super clean work", "positive"),
  example("rude and late, never again", "negative"),
  example("not happy, the heater broke again", "negative"),
  example("they came on tuesday to look at the furnace", "neutral"),
  example("installed a new thermostat in the hall", "neutral"),
  example("friendly tech but the price was insane, mixed feelings", "mixed"),
  example("great work, awful office, not sure how to rate", "mixed"),
];

describe("text-model experiment", () => {
  test("FNV-1a hashing gives the published 32-bit values", () => {
    assert.equal(fnv1a(""), 0x811c9dc5);
    assert.equal(fnv1a("a"), 0xe40c292c);
    assert.equal(fnv1a("foobar"), 0xbf9cf968);
  });

  test("words after a negator are marked up to the scope or the clause's end", () => {
    assert.deepEqual(textTokens("Not good at all, but FAST", 3), ["not", "!good", "!at", "!all", "|", "fast", "|"]);
    assert.deepEqual(textTokens("didn't call back", 1), ["didn't", "!call", "back", "|"]);
    assert.deepEqual(textTokens("not good", 0), ["not", "good", "|"]);
  });

  test("unigrams, bigrams and character trigrams are named, emoji kept as words", () => {
    const names = textFeatureNames(["great 👍"], { ...FEATURES, chars: true });
    assert.ok(names.includes("u:great"));
    assert.ok(names.includes("u:👍"));
    assert.ok(names.includes("b:great 👍"));
    assert.ok(names.includes("c: gr"));
    assert.ok(!textFeatureNames(["great 👍"], { ...FEATURES, bigrams: false }).some((n) => n.startsWith("b:")));
  });

  test("a text's hashed vector: sorted buckets in range, unit length, the same every time", () => {
    const v = textFeatures(["Fast, friendly and not expensive!"], FEATURES);
    assert.ok(v.index.length > 5);
    assert.ok([...v.index].every((b, i) => b >= 0 && b < 1 << FEATURES.bits && (i === 0 || b > v.index[i - 1])));
    assert.ok(Math.abs(v.value.reduce((s, x) => s + x * x, 0) - 1) < 1e-12);
    assert.deepEqual(textFeatures(["Fast, friendly and not expensive!"], FEATURES), v);
  });

  test("training twice gives the same weights; the model learns its training set and survives JSON", () => {
    const a = train(EXAMPLES, CONFIG);
    const b = train(EXAMPLES, CONFIG);
    assert.deepEqual(a, b);
    assert.deepEqual(
      EXAMPLES.map((e) => predict(a, e)),
      EXAMPLES.map((e) => e.y),
    );
    const loaded = JSON.parse(JSON.stringify(a)) as TextModel;
    assert.deepEqual(
      EXAMPLES.map((e) => predict(loaded, e)),
      EXAMPLES.map((e) => predict(a, e)),
    );
    const textOnly = train(EXAMPLES, { ...CONFIG, rules: "none" });
    assert.deepEqual(textOnly.dense.features, []);
    assert.notDeepEqual(textOnly.sparse, a.sparse);
  });

  test("accuracy and per-class F1", () => {
    assert.equal(accuracy([0, 1, 2, 3], [0, 1, 2, 2]), 0.75);
    assert.equal(classF1([0, 1, 2, 3], [0, 1, 2, 2], 2), 2 / 3);
    assert.equal(classF1([0, 1, 2, 3], [0, 1, 2, 2], 3), 0);
  });
});

describe("the committed text model (eval/model/text-model.json)", () => {
  test("was trained on the files as they are now, loads and scores them", async () => {
    const file = JSON.parse(await readFile(new URL("../../eval/model/text-model.json", import.meta.url), "utf8")) as {
      version: string;
      files: Record<string, string>;
      model: StackedModel;
    };
    assert.equal(file.version, MODEL_VERSION);
    assert.deepEqual(Object.keys(file.files).sort(), [...MODEL_SETS].sort());
    for (const [set, sha] of Object.entries(file.files))
      assert.equal(sha256(await readEvalFile(`${set}.jsonl`)), sha, set);
    const config = file.model.text.config;
    const items = parseJsonl(await readEvalFile("dev-check.jsonl"), "dev-check.jsonl");
    const predicted = items.map((item) =>
      predictStacked(file.model, {
        set: "dev-check",
        dense: labelFeaturesOf([item.text]),
        sparse: textFeatures([item.text], config),
        y: 0,
        rules: 0,
      }),
    );
    // In-sample: the model has seen these items; it must give them back nearly all.
    assert.ok(
      accuracy(
        items.map((i) => LABELS.indexOf(i.label)),
        predicted,
      ) >= 0.9,
    );
  });
});
