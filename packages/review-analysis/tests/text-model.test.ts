import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import fc from "fast-check";
import { readEvalFile } from "../scripts/eval/eval-files.ts";
import { LABELS, parseJsonl, sha256 } from "../scripts/eval/evaluate.ts";
import {
  accuracy,
  classF1,
  type Example,
  engineModelText,
  loadItems,
  MODEL_SETS,
  MODEL_VERSION,
  type ModelConfig,
  modelFile,
  predict,
  predictStacked,
  type TextModel,
  train,
  trainStacked,
} from "../scripts/eval/text-model.ts";
import { analyzeText, labelFeaturesOf } from "../src/analyze-text.ts";
import {
  loadReviewModel,
  modelVerdict,
  REVIEW_MODEL_VERSION,
  type ReviewModelFile,
  reviewModel,
} from "../src/review-model.ts";
import {
  fnv1a,
  INTENSIFIERS,
  SCAN,
  textBuckets,
  textFeatureNames,
  textFeatures,
  textTokens,
} from "../src/text-features.ts";

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

  test("the lexicon's intensifiers are never words, and do not use up a negation's scope", () => {
    assert.deepEqual(textTokens("Our installer was very lazy", 3), textTokens("Our installer was lazy", 3));
    assert.deepEqual(textTokens("not SUPER helpful, really", 1), ["not", "!helpful", "|"]);
    assert.ok(INTENSIFIERS.has("very") && INTENSIFIERS.has("super"));
  });

  test("unigrams, bigrams and character trigrams are named, emoji kept as words", () => {
    const names = textFeatureNames(["great 👍"], { ...FEATURES, chars: true });
    assert.ok(names.includes("u:great"));
    assert.ok(names.includes("u:👍"));
    assert.ok(names.includes("b:great 👍"));
    assert.ok(names.includes("c: gr"));
    assert.ok(!textFeatureNames(["great 👍"], { ...FEATURES, bigrams: false }).some((n) => n.startsWith("b:")));
  });

  test("the character scanner finds the words and breaks of the SCAN regular expression", async () => {
    // SCAN, the definition, applied the plain way.
    const byRegex = (text: string) => {
      const out: string[] = [];
      for (const m of text.toLowerCase().matchAll(SCAN)) {
        const w = m[1] === undefined ? m[0].replace(/’/g, "'") : "|";
        if (!INTENSIFIERS.has(w)) out.push(w);
      }
      return out;
    };
    // textTokens, without its negation marks, with every break (a clause's "|" only follows a word).
    const byScanner = (text: string) => textTokens(text, 0);
    const squeeze = (xs: string[]) => {
      const out: string[] = [];
      for (const x of xs) if (x !== "|" || (out.length && out.at(-1) !== "|")) out.push(x);
      if (out.length && out.at(-1) !== "|") out.push("|");
      return out;
    };
    const texts = (await loadItems(["dev", "train/train-b", "train/train-c"])).map((i) => i.text);
    for (const t of texts) assert.deepEqual(byScanner(t), squeeze(byRegex(t)), t);
    const alphabet = [..."abtuhoweverpgn'’ _-—–.,;:!?()\n\t\u00a0éÉſK1٣😀👍🏽\u200dİ\ud800xyzBUT"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }), (chars) => {
        const t = chars.join("");
        assert.deepEqual(byScanner(t), squeeze(byRegex(t)), JSON.stringify(t));
      }),
      { numRuns: 20_000 },
    );
  });

  test("the engine's hashing gives the buckets of the spelled-out feature names", () => {
    const texts = ["Not good at all, but FAST 👍", "didn’t call back. Never again!!", "", "Great - fast, cheap (ok)"];
    for (const config of [FEATURES, { ...FEATURES, chars: true, negationScope: 1 }, { ...FEATURES, bigrams: false }])
      for (const t of texts) {
        const parts = [t, "Title here"];
        const names = textFeatureNames(parts, config).map((n) => fnv1a(n) & ((1 << config.bits) - 1));
        assert.deepEqual(
          [...textBuckets(parts, config)],
          [...new Set(names)].sort((a, b) => a - b),
          t,
        );
      }
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

const MODEL_PATH = new URL("../src/model/review-label.json", import.meta.url);
const modelText = () => readFile(MODEL_PATH, "utf8");

describe("the engine's review-label model (src/model/review-label.json)", () => {
  test("scores a converted model exactly as the training's scoring does", () => {
    const stacked = trainStacked(
      EXAMPLES.map((e, i) => ({ ...e, set: i % 2 ? "dev-check" : "train/train-a" })),
      { ...CONFIG, stacked: true, iterations: 40, tunedWeight: 1 },
    );
    const model = loadReviewModel(JSON.parse(JSON.stringify(modelFile(stacked, {}))));
    const texts = [
      "great job, fast and friendly",
      "rude and late, never again",
      "they came on tuesday",
      "friendly tech but the price was insane",
      "ok",
    ];
    for (const text of texts) {
      const dense = labelFeaturesOf([text]);
      const e: Example = { set: "dev", dense, sparse: textFeatures([text], FEATURES), y: 0, rules: 0 };
      assert.equal(modelVerdict(model, dense, [text]).overall, LABELS[predictStacked(stacked, e)], text);
    }
  });

  test("was trained on the files as they are now, and labels them back (in-sample)", async () => {
    const file = JSON.parse(await modelText()) as ReviewModelFile;
    assert.equal(file.version, MODEL_VERSION);
    assert.equal(reviewModel().version, REVIEW_MODEL_VERSION);
    assert.deepEqual(Object.keys(file.files).sort(), [...MODEL_SETS].sort());
    for (const [set, sha] of Object.entries(file.files))
      assert.equal(sha256(await readEvalFile(`${set}.jsonl`)), sha, set);
    const items = parseJsonl(await readEvalFile("dev-check.jsonl"), "dev-check.jsonl");
    const predicted = items.map((item) => LABELS.indexOf(analyzeText([item.text]).overall));
    // In-sample: the model has seen these items; it must give them back nearly all.
    assert.ok(
      accuracy(
        items.map((i) => LABELS.indexOf(i.label)),
        predicted,
      ) >= 0.9,
    );
  });

  test("the engine's labels are deterministic and come from the file", async () => {
    const loaded = loadReviewModel(JSON.parse(await modelText()));
    const texts = ["Great tech, rude office.", "Fixed the leak. Fine.", "Never again!", "Mixed feelings, honestly."];
    for (const t of texts) {
      const dense = labelFeaturesOf([t]);
      const a = analyzeText([t]);
      assert.deepEqual(analyzeText([t]), a);
      const v = modelVerdict(loaded, dense, [t]);
      assert.deepEqual({ score: v.score, label: v.label }, a.sentiment);
      assert.equal(v.overall, a.overall);
    }
  });

  test("a model file of another version or shape is refused, saying why", async () => {
    const good = JSON.parse(await modelText()) as ReviewModelFile;
    const bad = (change: (f: ReviewModelFile) => void) => {
      const f = structuredClone(good);
      change(f);
      return () => loadReviewModel(f);
    };
    assert.throws(
      bad((f) => {
        f.version = "review-label-text-model@0.0.9";
      }),
      /review-label model: version "review-label-text-model@0\.0\.9", this engine reads review-label-text-model@/,
    );
    assert.throws(
      bad((f) => {
        f.labels = ["positive", "negative", "neutral", "mixed"];
      }),
      /review-label model: labels/,
    );
    assert.throws(
      bad((f) => {
        f.combiner.features = f.combiner.features.slice(1);
      }),
      /review-label model: combiner features/,
    );
    assert.throws(
      bad((f) => {
        f.text.weights = f.text.weights.slice(1);
      }),
      /review-label model: text\.weights/,
    );
    assert.throws(
      bad((f) => {
        f.text.buckets = [...f.text.buckets].reverse();
      }),
      /review-label model: text\.buckets must be increasing/,
    );
    assert.throws(
      bad((f) => {
        f.text.weights[0] += 0.00005;
      }),
      /review-label model: text\.weights must have at most 4 decimals/,
    );
    assert.throws(() => loadReviewModel(null), /review-label model: not a JSON object/);
  });

  // A bound against a hang, not a speed check: retraining takes 75-140 s on two idle cores, and several times that
  // while other test files run beside it.
  test("npm run eval:model -- --write gives the committed bytes again", { timeout: 900_000 }, async () => {
    assert.equal((await engineModelText()).text, await modelText());
  });
});
