import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import {
  aspectPrecision,
  type LayerItem,
  layerPredictions,
  localGroupsOf,
  trainLayer,
  UNTUNED_FOLDS,
} from "../scripts/eval/aspect-layer.ts";
import { readEvalFile } from "../scripts/eval/eval-files.ts";
import { sha256 } from "../scripts/eval/evaluate.ts";
import { LABELLED_SETS } from "../scripts/eval/text-model.ts";
import { analyzeByRules, analyzeText, ruleAnalysis } from "../src/analyze-text.ts";
import { ASPECT_CLASSES, ASPECT_LAYER_VERSION, type AspectLayerFile, loadAspectLayer } from "../src/aspect-layer.ts";
import { COMBINER_FEATURES, reviewModel } from "../src/review-model.ts";
import { fnv1a, textFeatures } from "../src/text-features.ts";
import { ASPECTS, type Aspect, type Sentiment } from "../src/vocabulary.ts";

const layerText = () => readFile(new URL("../src/model/aspect-layer.json", import.meta.url), "utf8");

const FEATURES = reviewModel().features;

/** A labelled review read as the trainer reads it (combiner inputs: the rules' findings, no text log-probs). */
function item(text: string, aspects: Partial<Record<Aspect, Sentiment>>, set: LayerItem["set"] = "dev"): LayerItem {
  const { aspects: rules, clauses, features } = ruleAnalysis([text]);
  const inputs = new Float64Array(COMBINER_FEATURES.length);
  inputs.set(features);
  return {
    set,
    item: { text, label: "positive", aspects },
    text,
    rules,
    clauses,
    features,
    sparse: textFeatures([text], FEATURES),
    local: localGroupsOf(text, clauses, rules),
    inputs,
    gold: ASPECTS.map((a) => ASPECT_CLASSES.indexOf(aspects[a] ?? "absent")),
  };
}

// "zorbly" is no word the rules know: only a learned layer can read it as praise of the cleanliness.
const ITEMS = [
  item("zorbly crew, left the place zorbly", { cleanliness: "positive" }),
  item("very zorbly afterwards", { cleanliness: "positive" }),
  item("zorbly as always. good", { cleanliness: "positive" }),
  item("fixed the sink", {}),
  item("came on tuesday for the heater", {}),
  item("they looked at the pipes", {}),
  item("Late again, and rude about it", { punctuality: "negative", friendliness: "negative" }),
  item("Great work on the water heater", { workmanship: "positive" }),
  item("the zorbly ones", { cleanliness: "positive" }),
  item("zorbly zorbly", { cleanliness: "positive" }),
  item("the nice ones", {}),
  item("on time, the usual", { punctuality: "positive" }),
];
const CONFIG = { lambda: 1e-4, iterations: 100, tunedWeight: 1, presentWeight: 1, minCount: 1 };

describe("the aspect layer (src/aspect-layer.ts)", () => {
  test("training twice gives the same file; it learns an aspect the rules cannot see and quotes a clause", () => {
    const a = trainLayer(ITEMS, CONFIG, { found: 0, added: 0.5 });
    const b = trainLayer(ITEMS, CONFIG, { found: 0, added: 0.5 });
    assert.equal(JSON.stringify(a), JSON.stringify(b));
    const text = "Came on Monday. zorbly guys";
    const probe = item(text, { cleanliness: "positive" });
    assert.ok(!probe.rules.some((m) => m.aspect === "cleanliness"), "the rules miss it");
    const [found] = layerPredictions(a, [probe]);
    const clean = found.find((m) => m.aspect === "cleanliness");
    assert.deepEqual(clean, { aspect: "cleanliness", polarity: "positive", quote: "zorbly guys" });
    // With the presence threshold at 1 nothing is added.
    const none = layerPredictions({ ...a, presence: { found: 0, added: 1 } }, [probe])[0];
    assert.ok(!none.some((m) => m.aspect === "cleanliness"));
  });

  test("one polarity per aspect; the rules' quote of that polarity is kept", () => {
    const file = trainLayer(ITEMS, CONFIG, { found: 0, added: 1 });
    const text = "Great work on the heater, terrible work on the sink";
    const rules = item(text, {});
    const [given] = layerPredictions(file, [rules]);
    const work = given.filter((m) => m.aspect === "workmanship");
    assert.equal(work.length, 1);
    const sameQuote = rules.rules.find((m) => m.aspect === "workmanship" && m.polarity === work[0].polarity);
    assert.equal(work[0].quote, sameQuote?.quote);
  });

  test("each aspect the rules found reads its own clause's words as its local words", () => {
    const text = "Great work on the heater; the crew left a mess though.";
    const { aspects: rules, clauses } = ruleAnalysis([text]);
    assert.deepEqual(rules.map((m) => m.aspect).sort(), ["cleanliness", "workmanship"]);
    const groups = localGroupsOf(text, clauses, rules);
    const group = (aspect: Aspect) => {
      const a = ASPECTS.indexOf(aspect);
      return new Set(groups.buckets.subarray(groups.start[a], groups.start[a + 1]));
    };
    const bucket = (word: string) => fnv1a(`u:${word}`) & ((1 << FEATURES.bits) - 1);
    assert.ok(group("workmanship").has(bucket("great")) && !group("workmanship").has(bucket("mess")));
    assert.ok(group("cleanliness").has(bucket("mess")) && !group("cleanliness").has(bucket("great")));
    assert.equal(group("speed").size, 0, "an aspect the rules did not find has no local words");
    const workmanship = [...group("workmanship")];
    assert.deepEqual(
      workmanship,
      [...workmanship].sort((a, b) => a - b),
      "sorted, each once",
    );
  });

  test("the precision of the aspects given counts distinct aspect and polarity pairs", () => {
    const items = [{ text: "x", label: "positive" as const, aspects: { speed: "positive" as const } }];
    const p = aspectPrecision(items, [
      [
        { aspect: "speed", polarity: "positive" },
        { aspect: "speed", polarity: "positive" },
        { aspect: "price_value", polarity: "negative" },
      ],
    ]);
    assert.deepEqual(p, { total: 2, correct: 1, precision: 0.5 });
  });
});

describe("the engine's aspect layer (src/model/aspect-layer.json)", () => {
  test("was trained on the files as they are now, and reads the review model's buckets", async () => {
    const file = JSON.parse(await layerText()) as AspectLayerFile;
    assert.equal(file.version, ASPECT_LAYER_VERSION);
    assert.deepEqual(Object.keys(file.files).sort(), [...LABELLED_SETS].sort());
    for (const [set, sha] of Object.entries(file.files))
      assert.equal(sha256(await readEvalFile(`${set}.jsonl`)), sha, set);
    assert.deepEqual(file.features, reviewModel().features);
    const cv = (file.training as { crossValidated: { untunedFolds: string[] } }).crossValidated;
    assert.deepEqual([...cv.untunedFolds].sort(), [...UNTUNED_FOLDS].sort());
  });

  test("a layer file of another version or shape is refused, saying why", async () => {
    const good = JSON.parse(await layerText()) as AspectLayerFile;
    const bad = (change: (f: AspectLayerFile) => void) => {
      const f = structuredClone(good);
      change(f);
      return () => loadAspectLayer(f, reviewModel());
    };
    assert.throws(
      bad((f) => {
        f.version = "aspect-layer@0.0.1";
      }),
      /aspect layer: version "aspect-layer@0\.0\.1", this engine reads aspect-layer@/,
    );
    assert.throws(
      bad((f) => {
        f.features = { ...f.features, bits: 16 };
      }),
      /aspect layer: features .* must be the review model's/,
    );
    assert.throws(
      bad((f) => {
        f.classes = ["positive", "negative", "neutral", "absent"];
      }),
      /aspect layer: classes/,
    );
    assert.throws(
      bad((f) => {
        f.weights = f.weights.slice(1);
      }),
      /aspect layer: weights/,
    );
    assert.throws(
      bad((f) => {
        f.local = { ...f.local, weights: f.local.weights.slice(1) };
      }),
      /aspect layer: local\.weights/,
    );
    assert.throws(
      bad((f) => {
        f.local = { ...f.local, buckets: [...f.local.buckets].reverse() };
      }),
      /aspect layer: local\.buckets/,
    );
    assert.throws(
      bad((f) => {
        f.presence = { found: 0, added: 2 };
      }),
      /aspect layer: presence/,
    );
    assert.throws(() => loadAspectLayer(null, reviewModel()), /aspect layer: not a JSON object/);
  });

  test("quotes are exact substrings, one polarity per aspect, the same every time", () => {
    const reviews: [string, string][] = [
      ["Great!", "Showed up exactly when they said they would and the new water heater works perfectly"],
      ["", "Cheaper than the other two quotes I got and the work was flawless"],
      ["meh", "got us in the same day, but the guy tracked mud everywhere. price was ok i guess"],
      ["Never again", "They never returned my calls and the leak is back. Zero apologies."],
      ["", "Rude receptionist, great technician. Quick to answer, slow to fix."],
    ];
    for (const parts of reviews) {
      const a = analyzeText(parts);
      assert.deepEqual(analyzeText(parts), a);
      const aspects = a.aspects.map((m) => m.aspect);
      assert.equal(new Set(aspects).size, aspects.length, parts.join(" | "));
      for (const m of a.aspects)
        assert.ok(
          parts.some((p) => p.includes(m.quote)),
          `${m.quote} in ${parts}`,
        );
    }
  });

  test("finds an implicit aspect the rules miss", () => {
    const text = "the tech wiped down everything before he left";
    assert.deepEqual(analyzeByRules([text]).aspects, []);
    assert.deepEqual(
      analyzeText([text]).aspects.find((m) => m.aspect === "cleanliness"),
      { aspect: "cleanliness", polarity: "positive", quote: text },
    );
  });
});
