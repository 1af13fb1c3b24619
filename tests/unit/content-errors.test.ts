// Content problems are reported all at once, each once, in plain words, with "did you mean" for a catalog
// reference that nearly names an entry: against the sample business, as a content author meets them.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { closestEntries } from "../../src/domain/closest-names.ts";
import { ContentError } from "../../src/domain/content-errors.ts";
import { validateContent } from "../../src/domain/validate-content.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

const businessText = readFileSync(join(SAMPLE_CONTENT, "business.json"), "utf8");
const business = { path: "business.json", text: businessText };
const good = { rating: 5, date: "2025-06-01", text: "Fine work.", author: "Ana R.", verified: true };
const file = (name: string, review: unknown) => ({ path: `reviews/x/${name}.json`, text: JSON.stringify(review) });

function problemsOf(...files: { path: string; text: string }[]): string[] {
  try {
    validateContent(business, files, { today: "2026-11-20" });
  } catch (e) {
    assert.ok(e instanceof ContentError, String(e));
    return e.message
      .split("\n")
      .slice(1)
      .map((l) => l.trim());
  }
  return [];
}

test("a missing or out-of-range rating is said in the project's words, not the validator's", () => {
  const { rating: _, ...noRating } = good;
  assert.deepEqual(problemsOf(file("a", noRating)), [
    "reviews/x/a.json: rating: is missing: it must be a whole number from 1 to 5",
  ]);
  assert.deepEqual(problemsOf(file("b", { ...good, rating: 7 })), [
    "reviews/x/b.json: rating: must be a whole number from 1 to 5, not 7",
  ]);
  assert.deepEqual(problemsOf(file("c", { ...good, verified: "yes" })), [
    'reviews/x/c.json: verified: must be true or false (without quotes), not "yes"',
  ]);
  for (const line of problemsOf(file("d", { ...good, rating: "5", date: "June 1" })))
    assert.doesNotMatch(line, /Invalid input|Too big|expected number/);
});

test("a malformed date is reported once and does not hide an unknown technician in the same file", () => {
  const problems = problemsOf(file("e", { ...good, date: "01/06/2025", technicians: ["Grant", "Marc"] }));
  assert.deepEqual(problems, [
    'reviews/x/e.json: date: must be a date written YYYY-MM-DD, such as 2025-06-01, not "01/06/2025"',
    'reviews/x/e.json: technicians.0: unknown technician "Grant" (not in business.json); did you mean grant-holloway (Grant Holloway)?',
  ]);
});

test("every file's problems come in one run", () => {
  const problems = problemsOf(
    file("f", { ...good, services: ["furnace repairs"] }),
    file("g", { ...good, author: "" }),
    file("h", good),
  );
  assert.equal(problems.length, 2, problems.join("\n"));
  assert.match(
    problems[0],
    /^reviews\/x\/f\.json: services\.0: unknown service "furnace repairs".*did you mean furnace-service/,
  );
  assert.match(problems[1], /^reviews\/x\/g\.json: author: /);
});

test("did you mean: a first name or a near spelling finds the entry; a stranger finds nothing", () => {
  const techs = JSON.parse(businessText).technicians;
  const ids = (ref: string) => closestEntries(techs, ref).map((e: { id: string }) => e.id);
  assert.deepEqual(ids("Grant"), ["grant-holloway"]);
  assert.deepEqual(ids("priya ramen"), ["priya-raman"]);
  assert.deepEqual(ids("will-okafr"), ["will-okafor"]);
  assert.deepEqual(ids("Zebulon"), []);
});
