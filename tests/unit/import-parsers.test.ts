// The importer's pure core: Google and CSV exports to content fields, dates, merging with existing files.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { parseCsvExport } from "../../src/domain/import/csv-export.ts";
import { parseGoogleExport } from "../../src/domain/import/google-export.ts";
import { detectLanguage, originalText } from "../../src/domain/import/google-translation.ts";
import { parseDateOrDateTime, stableId } from "../../src/domain/import/imported-review.ts";
import { planImport } from "../../src/domain/import/plan-import.ts";
import { reviewDateProblems } from "../../src/domain/review-dates.ts";
import { BusinessContent } from "../../src/domain/schemas/content.ts";
import { ROOT } from "../helpers/paths.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

const fixture = (name: string) => readFile(join(ROOT, "tests/import/fixtures", name), "utf8");

test("dates and date-times: written date kept, time normalised to UTC, impossible values refused", () => {
  assert.deepEqual(parseDateOrDateTime("2024-02-29"), { date: "2024-02-29" });
  assert.deepEqual(parseDateOrDateTime("2025-01-02T03:04:05.123456789Z"), {
    date: "2025-01-02",
    dateTime: "2025-01-02T03:04:05.123Z",
  });
  assert.deepEqual(parseDateOrDateTime("2025-03-01 23:30:00-07:00"), {
    date: "2025-03-01",
    dateTime: "2025-03-02T06:30:00Z",
  });
  assert.deepEqual(parseDateOrDateTime("2025-03-01 14:02"), { date: "2025-03-01", dateTime: "2025-03-01T14:02:00Z" });
  for (const bad of ["2023-02-29", "2025-13-01", "03/01/2025", "2025-03-01T25:00:00Z", "", "soon"]) {
    assert.equal(parseDateOrDateTime(bad), undefined, bad);
  }
});

test("ids: the platform's id when it is a valid file name, a stable hash otherwise", () => {
  assert.equal(stableId("google", "AbFv_Oq-1"), "google-AbFv_Oq-1");
  assert.equal(stableId("csv", "a/b c"), stableId("csv", "a/b c"));
  assert.match(stableId("csv", "a/b c"), /^csv-[0-9a-f]{16}$/);
});

test("Google translations: the original text in either order, its language detected", () => {
  assert.deepEqual(originalText("(Translated by Google) Hello there\n\n(Original)\nHola, buen trabajo"), {
    text: "Hola, buen trabajo",
    translated: true,
  });
  assert.deepEqual(originalText("Bonjour, très bon travail\n\n(Translated by Google)\nHello, very good work"), {
    text: "Bonjour, très bon travail",
    translated: true,
  });
  assert.deepEqual(originalText("Plain review"), { text: "Plain review", translated: false });
  assert.equal(detectLanguage("Excelente servicio, el técnico llegó a tiempo y fue muy amable."), "es");
  assert.equal(detectLanguage("ok"), "und");
});

test("CSV rating: a digit 1-5, also written 5.0; hexadecimal and exponents are problems", () => {
  const rated = (r: string) => parseCsvExport(`id,date,rating,author,text\nr1,2025-01-01,${r},Ann,Great\n`);
  for (const ok of ["5", " 4 ", "5.0", "3.00"])
    assert.equal(rated(ok).reviews[0]?.content.rating, Math.trunc(Number(ok)), ok);
  for (const bad of ["0x5", "5e0", "4.5", "+5", "05", "6", "0"]) {
    assert.equal(rated(bad).reviews.length, 0, bad);
    assert.equal(rated(bad).problems[0]?.field, "rating", bad);
  }
});

test("Google: a reply of white space only is no owner response; a real reply is kept", () => {
  const review = (comment: string) =>
    JSON.stringify({
      reviews: [
        {
          reviewId: "r1",
          reviewer: { displayName: "Ann" },
          starRating: "FIVE",
          comment: "Great",
          createTime: "2025-01-02T10:00:00Z",
          reviewReply: { comment, updateTime: "2025-01-03T10:00:00Z" },
        },
      ],
    });
  const blank = parseGoogleExport(review("   \n "));
  assert.deepEqual(blank.problems, []);
  assert.equal(blank.reviews[0].content.response, undefined);
  assert.deepEqual(parseGoogleExport(review("Thanks, Ann!")).reviews[0].content.response, {
    text: "Thanks, Ann!",
    date: "2025-01-03",
  });
});

test("Google pages: an array of pages is read, and a review in two pages keeps its latest version", async () => {
  const { reviews, problems } = parseGoogleExport(await fixture("google-pages.json"));
  assert.deepEqual(problems, []);
  assert.deepEqual(
    reviews.map((r) => [r.id, r.content.rating, r.content.updated]),
    [
      ["google-AbFvOqnB1", 4, "2025-01-09T10:00:00Z"],
      ["google-AbFvOqnB2", 5, "2025-01-05T10:00:00Z"],
    ],
  );
  assert.deepEqual(parseGoogleExport("[1, 2]").problems[0].where, "file");
  assert.match(parseGoogleExport("{nope").problems[0].reason, /not valid JSON/);
});

test("CSV: quoted fields, BOM and CRLF parsed; each bad row named by its first line", async () => {
  const ok = parseCsvExport(await fixture("reviews.csv"));
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.reviews[0].where, "line 2");
  assert.equal(ok.reviews[1].where, "line 4", "the quoted newline makes record 1 two lines long");
  const csv =
    'id,date,rating,text,author\r\nx,2025-01-01,5,"a ""b""\r\nc",Ann\r\n\r\ny,2025-01-01,9,t,Bo\r\nz,2025-01-01\r\n';
  const { reviews, problems } = parseCsvExport(csv);
  assert.deepEqual(reviews[0].content.text, 'a "b"\nc');
  assert.deepEqual(problems, [
    { where: "line 5", field: "rating", reason: 'must be a whole number from 1 to 5 (got "9")' },
    { where: "line 6", field: "", reason: "has 2 fields, the header has 5" },
  ]);
  assert.match(parseCsvExport('a,b\n"x,y\n').problems[0].reason, /Quote Not Closed/);
});

test("CSV: a row without an id gets one from its date and author, the same on every run", () => {
  const csv = "date,rating,author,text\n2025-01-01,5,Ann,Great\n";
  const a = parseCsvExport(csv, { source: "yelp" }).reviews[0];
  assert.equal(a.id, parseCsvExport(csv.replace("Great", "Great!"), { source: "yelp" }).reviews[0].id);
  assert.match(a.id, /^yelp-[0-9a-f]{16}$/);
  assert.equal(a.content.source, "yelp");
});

test("CSV: an id too long for a file name is hashed like any unusable id, so the import writes every file or none", () => {
  const long = "a".repeat(251);
  const csv = `id,date,rating,author,text\nok-1,2025-01-01,5,Ann,Great\n${long},2025-01-02,4,Bo,Good\n`;
  const ids = parseCsvExport(csv, { source: "csv" }).reviews.map((r) => r.id);
  assert.equal(ids[0], "ok-1");
  assert.match(ids[1], /^csv-[0-9a-f]{16}$/);
  assert.equal(ids[1], stableId("csv", long), "stable across runs");
  const longest = "b".repeat(250); // with .json, the 255 bytes a file name may have
  assert.equal(parseCsvExport(csv.replace(long, longest)).reviews[1].id, longest, "250 characters are kept");
});

test("date rules: future dates (beyond a day) and responses before their review are problems", () => {
  const today = "2025-06-10";
  assert.deepEqual(reviewDateProblems({ date: "2025-06-11" }, today), []);
  assert.deepEqual(
    reviewDateProblems({ date: "2025-06-12", response: { text: "x", date: "2025-06-01" } }, today).map((p) => p.field),
    ["date", "response.date"],
  );
  assert.deepEqual(
    reviewDateProblems({ date: "2025-06-01", updated: "2026-01-01T00:00:00Z" }, today)[0].field,
    "updated",
  );
});

test("plan: unknown catalog references and invalid merged content are problems, not files", async () => {
  const business = BusinessContent.parse(JSON.parse(await readFile(join(SAMPLE_CONTENT, "business.json"), "utf8")));
  const csv = "id,date,rating,author,technicians\nr1,2025-01-01,5,Ann,Nobody Here\nr2,2025-01-01,5,Bo,Grant Holloway\n";
  const plan = planImport(parseCsvExport(csv).reviews, {
    business,
    existing: new Map([["r2", { file: "reviews/old/r2.json", json: "not an object" }]]),
    folder: "reviews/csv",
    verified: false,
    today: "2025-06-01",
  });
  assert.deepEqual(plan.changes, []);
  assert.deepEqual(
    plan.problems.map((p) => [p.where, p.field]),
    [
      ["line 2", "technicians.0"],
      ["line 3", ""],
    ],
  );
});
