// The analysis module: phenomena by example, then properties over generated sentences.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { loadSampleBusiness, readEvalFile } from "../scripts/eval/eval-files.ts";
import { evaluate, parseJsonl } from "../scripts/eval/evaluate.ts";
import { analyzeByRules, analyzeText, chipReadings, engineModels } from "../src/analyze-text.ts";
import { CHIP_FEATURES } from "../src/chip-features.ts";
import { chipVerifier } from "../src/chip-verifier.ts";
import { buildMatcher, findMentions, nameWords, withinOneEdit } from "../src/mentions.ts";
import { clauses } from "../src/segment.ts";

const business = await loadSampleBusiness();
const matcher = buildMatcher(business);
const label = (t: string) => analyzeText([t]).sentiment.label;
const score = (t: string) => analyzeText([t]).sentiment.score;
const aspectsOf = (t: string) => Object.fromEntries(analyzeText([t]).aspects.map((a) => [a.aspect, a.polarity]));

describe("sentiment phenomena", () => {
  const cases: [string, string][] = [
    ["He was not professional.", "negative"],
    ["Never late.", "positive"],
    ["It wasn't cheap.", "negative"],
    ["Not unprofessional at all.", "positive"],
    ["No complaints.", "positive"],
    ["Couldn't be happier.", "positive"],
    ["Would not recommend.", "negative"],
    ["Can't say enough good things.", "positive"],
    ["They were a no-show.", "negative"],
    ["They called back the same day.", "positive"],
    ["He left a mess.", "negative"],
    ["Still waiting for a refund.", "negative"],
    ["The price was too high.", "negative"],
    ["The tech arrived at 3pm.", "neutral"],
  ];
  for (const [text, expected] of cases) test(`${text} -> ${expected}`, () => assert.equal(label(text), expected));

  test("contrast: on time but the price was way too high", () => {
    assert.deepEqual(aspectsOf("On time but the price was way too high."), {
      punctuality: "positive",
      price_value: "negative",
    });
    assert.equal(label("On time but the price was way too high."), "negative");
  });

  test("any letter case: NOT, Not, not", () => {
    assert.equal(score("He was NOT helpful."), score("He was not helpful."));
    assert.equal(score("Not helpful."), score("not helpful."));
    assert.equal(label("NOT HAPPY"), "negative");
  });
});

describe("mentions", () => {
  const techs = (t: string) => findMentions(matcher, t).technicians;
  test("full name, nickname, first name + initial, one-letter misspelling", () => {
    assert.deepEqual(techs("Teresa Nguyen was great"), ["tess-nguyen"]);
    assert.deepEqual(techs("Thanks Tess!"), ["tess-nguyen"]);
    assert.deepEqual(techs("We had Marcus D. out"), ["marcus-delgado"]);
    assert.deepEqual(techs("Our tech Marcos was great"), ["marcus-delgado"]);
  });
  test("names that are common words are careful", () => {
    assert.deepEqual(techs("Will definitely call again."), []);
    assert.deepEqual(techs("Will fixed it fast."), ["will-okafor"]);
    assert.deepEqual(techs("We will call again."), []);
    assert.deepEqual(techs("A grant paid for it."), []);
    assert.deepEqual(techs("Thanks to Grant for the help."), ["grant-holloway"]);
  });
  test("services by alias, longest first; areas by name and postal code", () => {
    const m = findMentions(matcher, "The hot water heater in 83642 and the AC");
    assert.deepEqual(m.services.sort(), ["ac-repair", "water-heater"]);
    assert.deepEqual(m.service_areas, ["meridian"]);
  });
});

describe("properties", () => {
  const positives = ["helpful", "professional", "friendly", "thorough", "reliable", "polite", "careful"];
  const negatives = ["rude", "sloppy", "careless", "unprofessional", "lazy", "dishonest"];
  const subjects = ["The tech", "He", "She", "Our installer", "The crew"];
  const word = fc.constantFrom(...positives, ...negatives);
  const subject = fc.constantFrom(...subjects);

  // A rule's property (negation scope), so the rules' own score: the model reads litotes ("not lazy") as it
  // learned them, not as the opposite of the word.
  test("negation flips the sign (the rules' score)", () => {
    const rulesScore = (t: string) => analyzeByRules([t]).sentiment.score;
    fc.assert(
      fc.property(subject, word, (s, w) => {
        const plain = rulesScore(`${s} was ${w}.`);
        const negated = rulesScore(`${s} was not ${w}.`);
        assert.ok(Math.sign(plain) === -Math.sign(negated) && plain !== 0, `${w}: ${plain} vs ${negated}`);
      }),
    );
  });

  test("case does not matter", () => {
    fc.assert(
      fc.property(subject, word, fc.boolean(), (s, w, not) => {
        const t = `${s} was ${not ? "not " : ""}${w}.`;
        assert.equal(score(t.toUpperCase()), score(t.toLowerCase()));
      }),
    );
  });

  test("an intensifier never flips the sign", () => {
    fc.assert(
      fc.property(subject, word, fc.constantFrom("very", "extremely", "really", "super", "incredibly"), (s, w, i) => {
        assert.equal(Math.sign(score(`${s} was ${i} ${w}.`)), Math.sign(score(`${s} was ${w}.`)));
      }),
    );
  });

  test("replacing a technician's name does not change the score (names are neutral words)", () => {
    const neutral = nameWords(business);
    const names = business.technicians.flatMap((t) => [t.name, ...(t.aliases ?? [])]);
    const scored = (t: string) => analyzeText([t], neutral).sentiment.score;
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.constantFrom(...names), word, (a, b, w) => {
        assert.equal(scored(`${a} was ${w} and on time.`), scored(`${b} was ${w} and on time.`));
      }),
    );
  });

  test("every clause and every quote is an exact substring", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            "On time, but messy.",
            "Great job!",
            "NOT cheap; worth it.",
            "“Fast” — and clean.",
            "😊",
            "\n\n",
            " ",
          ),
          { maxLength: 8 },
        ),
        (parts) => {
          const text = parts.join(" ");
          for (const c of clauses(text)) assert.equal(text.slice(c.start, c.end), c.text);
          for (const a of analyzeText([text]).aspects) assert.ok(text.includes(a.quote));
        },
      ),
    );
  });
});

describe("chips a reader is shown", () => {
  const OPPOSITE: Record<string, string> = { positive: "negative", negative: "positive" };
  const texts = async () => parseJsonl(await readEvalFile("dev.jsonl"), "eval/dev.jsonl").map((i) => i.text);

  test("a chip the whole review or its quote alone reads the other way is doubted, and the verifier learned to weigh it", async () => {
    let doubted = 0;
    for (const text of await texts()) {
      const { analysis, chips } = chipReadings(engineModels(), [text], new Set());
      for (const [a, read] of chips) {
        const alone = analyzeText([a.quote]);
        if (analysis.overall === OPPOSITE[a.polarity]) assert.ok(read.abstentions.has("review_opposite"), text);
        if (alone.overall === OPPOSITE[a.polarity] && read.abstentions.has("alone_opposite")) doubted++;
      }
    }
    assert.ok(doubted > 0, "the development set has quotes read the other way alone");
    const weights = chipVerifier();
    for (const reason of ["review_opposite", "alone_opposite", "alone_aspect_opposite"])
      assert.ok(weights.weights[CHIP_FEATURES.indexOf(`abstain_${reason}`)] > 0, `${reason} raises the doubt`);
  });

  test("a quote that opens with a condition is no chip", () => {
    const text = "If you need a plumber who shows up on time, look elsewhere. We waited all day and nobody came.";
    assert.ok(!analyzeText([text]).aspects.some((a) => /^\s*if\b/i.test(a.quote)), "no conditional quote");
  });

  test("a concession in a wholly negative review is doubted; the complaints are shown", () => {
    const text =
      "The technician was polite, I will give him that. The repair failed twice in a week, the office stopped answering, and we paid $600 for nothing. Never again.";
    const { analysis, chips } = chipReadings(engineModels(), [text], new Set());
    assert.equal(analysis.overall, "negative");
    for (const [a, read] of chips) if (a.polarity === "positive") assert.ok(read.abstentions.has("review_opposite"));
    assert.ok(
      analyzeText([text]).aspects.some((a) => a.polarity === "negative"),
      "the complaints are still shown",
    );
  });

  /** Why the hand-written chip rules doubt each praising chip of a text (features of the chip verifier). */
  const doubts = (text: string) => {
    const { chips } = chipReadings(engineModels(), [text], new Set());
    return [...chips].filter(([a]) => a.polarity === "positive").map(([a, read]) => ({ a, why: read.abstentions }));
  };

  test("praise another person voiced is doubted in a review not read as positive", () => {
    const told = 'The tech told us "easy fix, twenty minutes tops." Three hours later he was still in the attic.';
    const hearsay = "Our neighbor swore they were friendly. The guy who came to us barely spoke and left a mess.";
    for (const text of [told, hearsay]) {
      const praised = doubts(text);
      assert.ok(praised.length > 0, text);
      for (const { a, why } of praised.filter(({ a }) => /told|swore/.test(a.quote)))
        assert.ok(why.has("not_writers"), `${a.aspect} "${a.quote}"`);
    }
    assert.ok(analyzeText([hearsay]).aspects.length > 0, "the writer's own complaints are still shown");
  });

  test("praise of a first visit that a later visit follows is doubted in a review not read as positive", () => {
    const text =
      "First visit, the tech was excellent and had the furnace running in an hour. Second visit a different tech broke the thermostat and never came back.";
    const first = doubts(text).filter(({ a }) => a.quote.startsWith("First visit"));
    assert.ok(first.length > 0);
    for (const { why } of first) assert.ok(why.has("not_writers"));
  });

  test("work praised only as done, before a turn, is doubted ('Fixed the toilet, but...')", () => {
    const done = doubts("They fixed our water heater, but the relief valve started dripping the next day.");
    assert.ok(done.some(({ a, why }) => a.aspect === "workmanship" && why.has("job_done_turn")));
    const beautiful = doubts("They did a beautiful job on the water heater, but the invoice came late.");
    assert.ok(
      beautiful.some(({ a, why }) => a.aspect === "workmanship" && !why.has("job_done_turn")),
      "praise that says more than done is not",
    );
    assert.ok(
      analyzeText(["They did a beautiful job on the water heater, but the invoice came late."]).aspects.some(
        (a) => a.aspect === "workmanship" && a.polarity === "positive",
      ),
      "and is shown",
    );
  });
});

test("the frozen evaluation set stays above the aims (macro-F1 0.85, mixed aspects 85%, mention precision 0.95)", async () => {
  const report = evaluate(parseJsonl(await readEvalFile("frozen.jsonl"), "eval/frozen.jsonl"), business);
  assert.ok(report.items >= 80);
  assert.ok(report.macroF1 >= 0.85, `macro-F1 ${report.macroF1}`);
  assert.ok(report.mixedAspects.accuracy >= 0.85, `mixed ${report.mixedAspects.accuracy}`);
  assert.ok(report.mentions.precision >= 0.95, `precision ${report.mentions.precision}`);
});

/** The distance by the textbook table (optimal string alignment): the oracle of the direct check. */
function osaDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

test("name misspellings: within one edit exactly when the distance table says at most 1", () => {
  for (const [a, b, want] of [
    ["sorensen", "sorenson", true],
    ["holloway", "holoway", true],
    ["delgado", "delgaod", true],
    ["okafor", "okafor", true],
    ["nguyen", "ngyuen", true],
    ["raman", "ramen", true],
    ["holloway", "hollowya", true],
    ["sorensen", "sorenesn", true],
    ["sorensen", "sroensne", false],
    ["marcus", "marcos", true],
    ["marcus", "markos", false],
  ] as const)
    assert.equal(withinOneEdit(a, b), want, `${a} / ${b}`);
  // Small alphabets make near misses, swaps and repeats common.
  const word = fc.string({ unit: fc.constantFrom("a", "b", "c"), maxLength: 7 });
  fc.assert(
    fc.property(word, word, (a, b) => withinOneEdit(a, b) === osaDistance(a, b) <= 1),
    { numRuns: 5000, seed: 20261122 },
  );
  const edited = fc.tuple(word, fc.nat(8), fc.constantFrom("a", "b", "c", "d")).map(([w, i, c]) => {
    const k = i % (w.length + 1);
    return [
      w,
      [w.slice(0, k) + c + w.slice(k), w.slice(0, k) + c + w.slice(k + 1), w.slice(0, k) + w.slice(k + 1)],
    ] as const;
  });
  fc.assert(
    fc.property(edited, ([w, variants]) => variants.every((v) => withinOneEdit(w, v) === osaDistance(w, v) <= 1)),
    { numRuns: 2000, seed: 20261122 },
  );
});
