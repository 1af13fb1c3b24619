// Aspect-level opinions, classes of failure found on held-out writers, the mixed label, spelling and Spanish,
// mentions with names that are words, and a held-out set's pinned hash.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadSampleBusiness, readEvalFile } from "../scripts/eval/eval-files.ts";
import { heldOutCheck } from "../scripts/eval/evaluate.ts";
import { analyzeText } from "../src/analyze-text.ts";
import { CHIP_VERIFIER_VERSION } from "../src/chip-verifier.ts";
import { buildMatcher, findMentions } from "../src/mentions.ts";
import { REVIEW_MODEL_VERSION } from "../src/review-model.ts";
import { ANALYSIS_VERSION, ENGINE, ENGINE_VERSION, LEXICON_VERSIONS, MODEL_VERSION } from "../src/version.ts";

const analyse = (t: string) => analyzeText([t]);
const aspectsOf = (t: string) => Object.fromEntries(analyse(t).aspects.map((a) => [a.aspect, a.polarity]));

describe("one sentence, several aspects with their own polarity", () => {
  const cases: [string, Record<string, string>][] = [
    [
      "Cheaper than the other two quotes I got and the work was flawless.",
      { price_value: "positive", workmanship: "positive" },
    ],
    [
      "Showed up exactly when they said they would and the new water heater works perfectly.",
      { punctuality: "positive", workmanship: "positive" },
    ],
    ["Fast but sloppy.", { speed: "positive", workmanship: "negative" }],
    ["Great communication, lousy scheduling.", { communication: "positive", scheduling: "negative" }],
    ["The work is great, the price is not.", { workmanship: "positive", price_value: "negative" }],
    ["They got us in the same day.", { scheduling: "positive" }],
  ];
  for (const [text, expected] of cases)
    test(text, () => {
      const got = aspectsOf(text);
      for (const [aspect, polarity] of Object.entries(expected)) assert.equal(got[aspect], polarity, aspect);
    });
});

describe("classes of failure found on held-out writers", () => {
  const cases: [string, string][] = [
    ["She was a delight.", "positive"],
    ["They never returned my calls.", "negative"],
    ["Zero apologies for missing the appointment.", "negative"],
    ["Not pushy, just honest.", "positive"],
    ["Not rude, just useless.", "negative"],
    ["Can't fault the work.", "positive"],
    ["No complaints at all.", "positive"],
    ["Worse than the last company.", "negative"],
    ["Not once did they call back.", "negative"],
    ["Although they were a little late, the work was excellent.", "positive"],
  ];
  for (const [text, expected] of cases)
    test(`${text} -> ${expected}`, () => assert.equal(analyse(text).overall, expected));
});

describe("problem words describe the job, not the work", () => {
  test("a fixed leak is praise, a recurring one a complaint, an absent one praise", () => {
    assert.equal(analyse("Leak fixed same day in 98406.").overall, "positive");
    assert.equal(aspectsOf("Leak fixed same day in 98406.").workmanship, "positive");
    assert.equal(analyse("The drain clogged again two days later.").overall, "negative");
    assert.equal(analyse("No more leaks.").overall, "positive");
    assert.equal(analyse("The leak was coming from the water heater valve.").overall, "neutral");
  });
});

describe("the mixed label", () => {
  test("praise and criticism side by side are mixed; the record label stays three-way", () => {
    const a = analyse("Rude receptionist, great technician.");
    assert.equal(a.overall, "mixed");
    assert.ok(["positive", "neutral", "negative"].includes(a.sentiment.label));
  });
  test("a conceded side is not mixed: lukewarm praise, or praise answered by a faulted job", () => {
    assert.equal(analyse("Service was okay but the price was too high.").overall, "negative");
    assert.equal(analyse("The guy was nice but the work was sloppy.").overall, "negative");
    assert.equal(analyse("Great tech.").overall, "positive");
  });
});

describe("spelling and Spanish", () => {
  test("misspelt opinion words count; real words are never corrected", () => {
    assert.equal(aspectsOf("the techncian was very profesional").professionalism, "positive");
    assert.equal(analyse("dissapointed, they charged me twice").overall, "negative");
    assert.equal(analyse("he was late and didnt call").overall, "negative");
    assert.equal(analyse("The furnace is in the garage.").overall, "neutral");
  });
  test("a short Spanish vocabulary", () => {
    assert.equal(analyse("Excelente servicio, muy amables.").overall, "positive");
    assert.equal(analyse("Muy mal servicio, nunca llegaron.").overall, "negative");
  });
});

describe("mentions", async () => {
  const content = await loadSampleBusiness();
  const business = {
    ...content,
    technicians: [...content.technicians, { id: "frank-russo", name: "Frank Russo" }],
    services: [...content.services, { id: "leak-repair", name: "Leak Repair", aliases: ["leak"] }],
  };
  const m = buildMatcher(business);
  test("a technician called Frank: linked when he acts, not in 'to be frank'", () => {
    assert.deepEqual(findMentions(m, "Frank was upfront about the cost.").technicians, ["frank-russo"]);
    assert.deepEqual(findMentions(m, "Frank was nice though.").technicians, ["frank-russo"]);
    assert.deepEqual(findMentions(m, "To be frank, I expected more.").technicians, []);
    assert.deepEqual(findMentions(m, "Frankly the best.").technicians, []);
  });
  test("'refrigerant leak' is not the leak service; Spanish job names find the service", () => {
    assert.deepEqual(findMentions(m, "Our AC had a refrigerant leak.").services, ["ac-repair"]);
    assert.deepEqual(findMentions(m, "Fixed the leak under the sink.").services, ["leak-repair"]);
    assert.deepEqual(findMentions(m, "Arreglaron el calentador de agua.").services, ["water-heater"]);
  });
});

describe("evaluation integrity", () => {
  test("eval/holdout-2.jsonl still matches the sha256 committed with it; a changed copy does not", async () => {
    const text = await readEvalFile("holdout-2.jsonl");
    const pinned = await readEvalFile("holdout-2.sha256");
    assert.equal(heldOutCheck(text, pinned).ok, true);
    assert.equal(heldOutCheck(`${text}{"text": "tuned", "label": "positive"}\n`, pinned).ok, false);
    assert.equal(heldOutCheck(text, "").ok, false);
  });
  test("the analysis version names the engine, the review-label model and every lexicon", () => {
    for (const [name, version] of Object.entries(LEXICON_VERSIONS))
      assert.ok(ANALYSIS_VERSION.includes(`${name}@${version}`));
    assert.ok(ANALYSIS_VERSION.includes(`${ENGINE}@${ENGINE_VERSION} ${REVIEW_MODEL_VERSION} `));
    assert.ok(ANALYSIS_VERSION.includes(` ${CHIP_VERIFIER_VERSION} `), "and the chip verifier");
    assert.equal(MODEL_VERSION, REVIEW_MODEL_VERSION);
  });
});
