import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  ASPECT_CLASSES,
  ASPECT_MODEL_VERSION,
  type AspectModel,
  aspectFeatures,
  aspectScores,
  aspectsWithModel,
  prepareAspectModel,
} from "../../scripts/eval/aspect-features.ts";
import {
  type AspectItem,
  type AspectModelConfig,
  aspectExamples,
  aspectPrecision,
  goldClasses,
  trainAspectModel,
} from "../../scripts/eval/aspect-model.ts";
import type { LabelledItem } from "../../scripts/eval/evaluate.ts";
import { analyzeByRules } from "../../src/domain/analysis/analyze-text.ts";
import { ASPECTS } from "../../src/domain/schemas/common.ts";

const CONFIG: AspectModelConfig = {
  bits: 12,
  bigrams: true,
  chars: false,
  negationScope: 3,
  text: true,
  quotes: true,
  add: false,
  drop: false,
  lambda: 1e-4,
  iterations: 60,
};

const item = (text: string, aspects: LabelledItem["aspects"] = {}): AspectItem => ({
  set: "dev",
  item: { text, label: "positive", aspects },
  rules: analyzeByRules([text]),
});

const ITEMS = [
  item("The tech was on time and the price was fair.", { punctuality: "positive", price_value: "positive" }),
  item("Late again, and way overpriced.", { punctuality: "negative", price_value: "negative" }),
  item("Friendly guy, but the work was sloppy.", { friendliness: "positive", workmanship: "negative" }),
  item("Great workmanship, spotless afterwards.", { workmanship: "positive", cleanliness: "positive" }),
  item("They never called back to schedule.", { communication: "negative", scheduling: "negative" }),
];

/** A model that gives every aspect class `c` (its bias), whatever the features. */
const constant = (c: (typeof ASPECT_CLASSES)[number], config: Partial<AspectModelConfig> = {}): AspectModel => ({
  version: ASPECT_MODEL_VERSION,
  classes: ASPECT_CLASSES,
  config: { ...CONFIG, ...config },
  bias: ASPECT_CLASSES.map((x) => (x === c ? 1 : 0)),
  sparse: {},
});

const TEXT = "The tech was friendly. The price was fair.";
const RULES = analyzeByRules([TEXT]);

describe("aspect-model experiment", () => {
  test("the rules find what these tests assume", () => {
    assert.ok(RULES.aspects.some((m) => m.aspect === "friendliness" && m.polarity === "positive"));
    assert.ok(RULES.aspects.some((m) => m.aspect === "price_value"));
  });

  test("a model of another version or with other classes is refused", () => {
    assert.throws(
      () => prepareAspectModel({ ...constant("positive"), version: "aspect-polarity-model@0.0.1" }),
      /0\.0\.1/,
    );
    assert.throws(
      () => prepareAspectModel({ ...constant("positive"), classes: ["absent", "positive", "negative"] as never }),
      /classes/,
    );
  });

  test("a model that keeps a rules aspect keeps its mention and quote as they are", () => {
    const out = aspectsWithModel([TEXT], RULES, prepareAspectModel(constant("positive")));
    const positive = RULES.aspects.filter((m) => m.polarity === "positive");
    for (const m of positive)
      assert.ok(out.some((o) => o.aspect === m.aspect && o.quote === m.quote && o.polarity === "positive"));
    // No aspect the rules did not find (add is off), each aspect once.
    assert.deepEqual(
      [...new Set(out.map((m) => m.aspect))].sort(),
      [...new Set(RULES.aspects.map((m) => m.aspect))].sort(),
    );
  });

  test("a model that turns a rules aspect's polarity keeps the rules' quote for it", () => {
    const out = aspectsWithModel([TEXT], RULES, prepareAspectModel(constant("negative")));
    const friendliness = RULES.aspects.find((m) => m.aspect === "friendliness");
    assert.deepEqual(
      out.find((m) => m.aspect === "friendliness"),
      { aspect: "friendliness", polarity: "negative", quote: friendliness?.quote },
    );
    assert.ok(out.every((m) => m.polarity === "negative"));
  });

  test("absent drops a rules aspect only when the model may drop", () => {
    assert.deepEqual(aspectsWithModel([TEXT], RULES, prepareAspectModel(constant("absent"))), RULES.aspects);
    assert.deepEqual(aspectsWithModel([TEXT], RULES, prepareAspectModel(constant("absent", { drop: true }))), []);
  });

  test("a polarity among several the rules found keeps them all only with keepHedges", () => {
    const rules = {
      overall: "mixed" as const,
      aspects: [
        { aspect: "friendliness" as const, polarity: "positive" as const, quote: "The tech was friendly" },
        { aspect: "friendliness" as const, polarity: "negative" as const, quote: "The price was fair" },
      ],
    };
    assert.deepEqual(aspectsWithModel([TEXT], rules, prepareAspectModel(constant("negative"))), [rules.aspects[1]]);
    const hedged = prepareAspectModel(constant("negative", { keepHedges: true }));
    assert.deepEqual(aspectsWithModel([TEXT], rules, hedged), rules.aspects);
  });

  test("an added aspect has an exact sentence of the text as its quote", () => {
    const out = aspectsWithModel([TEXT], RULES, prepareAspectModel(constant("positive", { add: true })));
    assert.equal(new Set(out.map((m) => m.aspect)).size, ASPECTS.length);
    for (const m of out) assert.ok(TEXT.includes(m.quote), m.quote);
    const added = out.filter((m) => !RULES.aspects.some((r) => r.aspect === m.aspect));
    assert.ok(added.length > 0);
    for (const m of added) assert.ok(["The tech was friendly.", "The price was fair."].includes(m.quote));
  });

  test("features: shared names agree across aspects, conjoined ones differ", () => {
    const all = aspectFeatures(
      [TEXT],
      RULES,
      CONFIG,
      ASPECTS.map(() => true),
    );
    const [a, b] = all.slice(0, 2);
    // Only the aspects the rules found are candidates when the model may not add.
    const found = aspectFeatures([TEXT], RULES, CONFIG);
    assert.deepEqual(
      found.map((x) => x.index.length > 0),
      ASPECTS.map((x) => RULES.aspects.some((m) => m.aspect === x)),
    );
    const sa = new Set(a.index);
    const shared = [...b.index].filter((x) => sa.has(x));
    assert.ok(shared.length > 0);
    assert.ok(shared.length < b.index.length);
    assert.equal(a.index.length, a.value.length);
  });

  test("gold classes: absent unless labelled", () => {
    assert.deepEqual(
      goldClasses({ text: "", label: "positive", aspects: { speed: "negative", punctuality: "neutral" } }),
      ASPECTS.map((a) => (a === "speed" ? 2 : a === "punctuality" ? 3 : 0)),
    );
  });

  test("keep-only training learns from the aspects the rules found; adding, from all nine", () => {
    const found = ITEMS.reduce((s, x) => s + new Set(x.rules.aspects.map((m) => m.aspect)).size, 0);
    assert.equal(aspectExamples(ITEMS, CONFIG).length, found);
    assert.equal(aspectExamples(ITEMS, { ...CONFIG, add: true }).length, ITEMS.length * ASPECTS.length);
  });

  test("training is deterministic and learns the training items", () => {
    const a = trainAspectModel(ITEMS, CONFIG);
    assert.equal(JSON.stringify(a), JSON.stringify(trainAspectModel(ITEMS, CONFIG)));
    const prepared = prepareAspectModel(a);
    const examples = aspectExamples(ITEMS, CONFIG);
    const right = examples.filter((e) => {
      const z = aspectScores(prepared, e.sparse);
      return z.indexOf(Math.max(...z)) === e.y;
    }).length;
    assert.ok(right / examples.length >= 0.9, `${right}/${examples.length}`);
  });

  test("precision counts each aspect and polarity once per review", () => {
    const items: LabelledItem[] = [
      { text: "", label: "mixed", aspects: { speed: "positive", price_value: "negative" } },
    ];
    const p = aspectPrecision(items, [
      [
        { aspect: "speed", polarity: "positive" },
        { aspect: "speed", polarity: "positive" },
        { aspect: "price_value", polarity: "positive" },
      ],
    ]);
    assert.deepEqual(p, { total: 2, correct: 1, precision: 0.5 });
  });
});
