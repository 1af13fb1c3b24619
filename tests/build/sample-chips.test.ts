// Every aspect chip the sample build publishes, read against a hand-labelled list of the sample's hardest sentences:
// where a labelled sentence is quoted, the chip says what its writer meant, or no chip is shown.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { buildSample } from "../helpers/build.ts";

/**
 * [sentence, what it says]: the polarity every chip quoting it must have, whatever the aspect. Labelled by hand from
 * the sentence alone; the sentences whose chips flipped inside longer reviews, and their neighbours.
 */
const HARD: [string, "positive" | "negative"][] = [
  ["They made a mess and didn't bother to clean up.", "negative"],
  ["Couldn't be happier.", "positive"],
  ["No mess at all, you wouldn't know anyone had been here.", "positive"],
  ["We took the afternoon off work and they never showed up.", "negative"],
  ["barely said a word and left.", "negative"],
  ["Nobody called back after I left three messages.", "negative"],
  ["Muddy boot prints all over the new carpet.", "negative"],
  ["Left the place cleaner than he found it.", "positive"],
  ["He left a mess in our garage: old filters, screws and insulation everywhere.", "negative"],
  ["Honest about what needed fixing and what could wait.", "positive"],
  ["Not pushy at all, which is rare these days.", "positive"],
  ["$389 just to show up and tell us it needed a part.", "negative"],
  ["Felt like a sales pitch more than a service call.", "negative"],
  ["Woke up to no hot water and a puddle in the garage.", "negative"],
  ["Still waiting for the invoice they promised to email a month ago.", "negative"],
  ["but the office never called back about the warranty.", "negative"],
  ["They rescheduled us three times without asking.", "negative"],
];

test("no published chip of the sample contradicts a hand-labelled sentence it quotes", async () => {
  const dist = await buildSample();
  const dataset = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")) as ReviewsDataset;
  const contradictions: string[] = [];
  const quoted = new Set<string>();
  for (const r of dataset.reviews) {
    for (const chip of r.aspects) {
      for (const [sentence, meant] of HARD) {
        if (!chip.quote.includes(sentence)) continue;
        quoted.add(sentence);
        if (chip.polarity !== meant) contradictions.push(`${r.id}: ${chip.aspect} ${chip.polarity} "${chip.quote}"`);
      }
    }
  }
  assert.deepEqual(contradictions, []);
  // The list is about the sample: most of its sentences are quoted by some chip.
  assert.ok(quoted.size >= HARD.length / 2, `${quoted.size} of ${HARD.length} sentences quoted`);
  const mess = dataset.reviews.filter((r) => r.text.includes("They made a mess and didn't bother to clean up."));
  assert.ok(mess.length >= 2, "the sample has the sentence in several reviews");
});
