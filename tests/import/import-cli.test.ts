// npm run import as a real process against a copy of business.json: idempotence, updates that keep local
// fields, all-or-nothing on invalid rows, --skip-invalid, --dry-run, and the published result after a build.
import assert from "node:assert/strict";
import { copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import { sha256Hex } from "../../src/domain/hash.ts";
import { runBuild, runScript } from "../helpers/build.ts";
import { ROOT } from "../helpers/paths.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

const FIXTURES = join(ROOT, "tests/import/fixtures");
let content: string;

const runImport = (...args: string[]) => runScript("scripts/import.ts", args, { CONTENT_DIR: content });
const runImportWith = (env: Record<string, string>, ...args: string[]) =>
  runScript("scripts/import.ts", args, { CONTENT_DIR: content, ...env });

/** Every file under content/ with its hash and modification time. */
async function snapshot(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(content, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    out.set(path.slice(content.length), `${sha256Hex(await readFile(path))} ${(await stat(path)).mtimeMs}`);
  }
  return out;
}

const readReview = async (rel: string) => JSON.parse(await readFile(join(content, rel), "utf8"));

beforeEach(async () => {
  content = await mkdtemp(join(tmpdir(), "rps-import-"));
  await copyFile(join(SAMPLE_CONTENT, "business.json"), join(content, "business.json"));
});
afterEach(() => rm(content, { recursive: true, force: true }));

test("google: maps every case, and re-running the same export changes no file", async () => {
  const first = await runImport("google", join(FIXTURES, "google-reviews.json"));
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^created 4, updated 0, unchanged 0, skipped 0$/m);
  assert.match(first.stdout, /4 imported reviews are unpublished \("verified": false\)/);
  assert.doesNotMatch(first.stdout, /email or phone/, "the business's own number in a reply is not a customer's");
  const dana = await readReview("reviews/google/google-AbFvOqnA1.json");
  assert.deepEqual(dana, {
    rating: 5,
    date: "2025-03-04",
    updated: "2025-03-04T17:21:09.123Z",
    text: "Grant fixed our furnace the same day. Very professional and tidy.",
    author: "Dana W.",
    verified: false,
    source: "google",
    response: { text: "Thank you Dana! Call us any time at (208) 555-0147.", date: "2025-03-05" },
  });
  const anonymous = await readReview("reviews/google/google-AbFvOqnA2.json");
  assert.equal(anonymous.author, "Anonymous");
  assert.equal(anonymous.text, "");
  const spanish = await readReview("reviews/google/google-AbFvOqnA3.json");
  assert.equal(spanish.text, "Excelente servicio, el técnico llegó a tiempo y fue muy amable.");
  assert.equal(spanish.language, "es");
  assert.equal(spanish.updated, "2025-05-02T12:30:00.999Z");
  const french = await readReview("reviews/google/google-AbFvOqnA4.json");
  assert.equal(french.text, "Le technicien était en retard mais le travail est bien fait.");
  assert.equal(french.language, "fr");
  const all = [...(await snapshot()).keys()];
  for (const f of all) assert.doesNotMatch(await readFile(join(content, f), "utf8"), /googleusercontent|undefined/);

  const before = await snapshot();
  const again = await runImport("google", join(FIXTURES, "google-reviews.json"));
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^created 0, updated 0, unchanged 4, skipped 0$/m);
  assert.deepEqual(await snapshot(), before);
});

test("a later export updates text, rating and reply and keeps every field a person added", async () => {
  await runImport("google", join(FIXTURES, "google-reviews.json"));
  const file = join(content, "reviews/google/google-AbFvOqnA1.json");
  const edited = {
    ...(await readReview("reviews/google/google-AbFvOqnA1.json")),
    verified: true,
    technicians: ["grant-holloway"],
    services: ["furnace-service"],
    service_areas: ["boise"],
    private: { phone: "208-555-0716", job: "SC-1" },
  };
  await writeFile(file, JSON.stringify(edited, null, 2));
  const later = JSON.parse(await readFile(join(FIXTURES, "google-reviews.json"), "utf8"));
  later.reviews[0].starRating = "FOUR";
  later.reviews[0].comment = "Grant fixed our furnace. Tidy work, a bit pricey. Text me on 208-555-0199.";
  later.reviews[0].updateTime = "2025-03-20T10:00:00Z";
  delete later.reviews[0].reviewReply;
  const laterFile = join(content, "later.json.export");
  await writeFile(laterFile, JSON.stringify(later));

  const dry = await runImport("google", laterFile, "--dry-run");
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /would update reviews\/google\/google-AbFvOqnA1\.json \(rating, updated, text, response\)/);
  assert.match(dry.stdout, /dry run, nothing written: created 0, updated 1, unchanged 3, skipped 0/);
  assert.deepEqual(JSON.parse(await readFile(file, "utf8")), edited);

  const run = await runImport("google", laterFile);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /1 imported review holds a customer's email or phone number \(reviews\/google\/google-AbFvOqnA1\.json\)/,
  );
  assert.match(run.stdout, /^created 0, updated 1, unchanged 3, skipped 0$/m);
  const { rating, text, response, updated, ...kept } = JSON.parse(await readFile(file, "utf8"));
  assert.deepEqual(
    { rating, text, response, updated },
    { rating: 4, text: later.reviews[0].comment, response: undefined, updated: "2025-03-20T10:00:00Z" },
  );
  const { rating: _r, text: _t, response: _p, updated: _u, ...keptBefore } = edited;
  assert.deepEqual(kept, keptBefore);
});

test("invalid rows: nothing is written and each is reported with its index and field; --skip-invalid writes the rest", async () => {
  const before = await snapshot();
  const run = await runImport("google", join(FIXTURES, "google-invalid.json"));
  assert.equal(run.code, 1);
  assert.match(run.stderr, /google-invalid\.json: reviews\[1\]: starRating: must be ONE, TWO, THREE, FOUR or FIVE/);
  assert.match(run.stderr, /google-invalid\.json: reviews\[2\]: createTime: not an RFC 3339 date-time/);
  assert.match(run.stderr, /google-invalid\.json: reviews\[3\]: reviewId:/);
  assert.match(run.stderr, /3 problems; nothing was written/);
  assert.deepEqual(await snapshot(), before);

  const skip = await runImport("google", join(FIXTURES, "google-invalid.json"), "--skip-invalid");
  assert.equal(skip.code, 0, skip.stderr);
  assert.match(skip.stderr, /reviews\[1\]: starRating/);
  assert.match(skip.stdout, /^created 1, updated 0, unchanged 0, skipped 3$/m);
  const files = [...(await snapshot()).keys()].filter((f) => f.includes("reviews"));
  assert.deepEqual(files, ["/reviews/google/google-AbFvOqnC1.json"]);
});

test("csv: BOM, CRLF, quoted commas, quotes and newlines; invalid rows reported by line", async () => {
  const run = await runImport("csv", join(FIXTURES, "reviews.csv"));
  assert.equal(run.code, 0, run.stderr);
  const one = await readReview("reviews/csv/sheet-001.json");
  assert.equal(one.text, 'Grant came out, found the fault and fixed it.\nHe said it was "a classic ignitor failure".');
  assert.deepEqual(one.response, { text: "Thanks Ann!", date: "2025-02-11" });
  assert.deepEqual(one.technicians, ["Grant Holloway"]);
  assert.equal(one.verified, false);
  const two = await readReview("reviews/csv/sheet-002.json");
  assert.deepEqual([two.date, two.updated, two.text, two.verified], ["2025-02-12", "2025-02-12T22:30:00Z", "", false]);

  const bad = await runImport("csv", join(FIXTURES, "invalid.csv"));
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /invalid\.csv: line 3: rating: must be a whole number from 1 to 5 \(got "6"\)/);
  assert.match(bad.stderr, /invalid\.csv: line 4: date: must be a real date/);
  assert.match(bad.stderr, /invalid\.csv: line 5: author: missing/);
  await assert.rejects(stat(join(content, "reviews/csv/ok-1.json")));
});

test("csv of another platform's columns with --map, --source and --verified builds into published reviews", async () => {
  const args = ["csv", join(FIXTURES, "other-platform.csv"), "--source", "trustpilot", "--verified"];
  for (const m of [
    "id=Review ID",
    "date=Review Created (UTC)",
    "rating=Review Stars",
    "title=Review Title",
    "text=Review Content",
    "author=Reviewer Name",
    "response=Company Reply",
    "response_date=Company Reply Date (UTC)",
    "language=Review Language",
  ]) {
    args.push("--map", m);
  }
  const unmapped = await runImport("csv", join(FIXTURES, "other-platform.csv"));
  assert.equal(unmapped.code, 1);
  assert.match(unmapped.stderr, /line 1: date: no "date" column \(name it, or use --map date=Column\)/);

  const run = await runImport(...args);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^created 2, updated 0, unchanged 0, skipped 0$/m);
  assert.doesNotMatch(run.stdout, /unpublished/);
  assert.deepEqual(await readReview("reviews/trustpilot/tp-9f3a.json"), {
    rating: 5,
    date: "2025-03-01",
    updated: "2025-03-01T14:02:11Z",
    title: "Brilliant",
    text: "On time, friendly, spotless.",
    author: "Maria G.",
    verified: true,
    source: "trustpilot",
    language: "en",
    response: { text: "Thank you Maria!", date: "2025-03-02" },
  });
  const dist = join(content, "..", `${content.split("/").pop()}-dist`);
  try {
    const build = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist });
    assert.equal(build.code, 0, build.stderr);
    const dataset = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8"));
    assert.deepEqual(dataset.reviews.map((r: { id: string }) => r.id).sort(), ["tp-9f3a", "tp-9f3b"]);
  } finally {
    await rm(dist, { recursive: true, force: true });
  }
});

test("a file that is missing or not UTF-8 is refused with its name", async () => {
  const latin1 = join(content, "latin1.csv");
  await writeFile(latin1, Buffer.from("id,date,rating,author\nx,2025-01-01,5,Jos\xe9\n", "latin1"));
  const run = await runImport("csv", latin1);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /latin1\.csv: not UTF-8 text/);
  await assert.rejects(stat(join(content, "reviews")));
  const missing = await runImport("google", join(content, "nope.json"));
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /nope\.json: no such file/);
});

test("usage errors name the problem and print the usage", async () => {
  const run = await runImport("csv", join(FIXTURES, "reviews.csv"), "--map", "stars=Review Stars");
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--map stars=Review Stars: expected field=Column/);
  assert.match(run.stderr, /usage: npm run import -- google FILE/);
});

test("--help prints the usage on stdout and exits 0", async () => {
  const run = await runImport("--help");
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^usage: npm run import -- google FILE/);
  assert.equal(run.stderr, "");
});

test("reviewer names are written as first name and last initial unless AUTHOR_NAME_POLICY says otherwise", async () => {
  const file = join(content, "names.csv");
  await writeFile(
    file,
    "id,date,rating,author\nn-1,2025-01-01,5,Marcus Hill\nn-2,2025-01-02,4,élodie de la fontaine\nn-3,2025-01-03,5,Prince\n",
  );
  assert.equal((await runImport("csv", file)).code, 0);
  const authors = async () =>
    Promise.all(["n-1", "n-2", "n-3"].map(async (id) => (await readReview(`reviews/csv/${id}.json`)).author));
  assert.deepEqual(await authors(), ["Marcus H.", "élodie F.", "Prince"]);
  const full = await runImportWith({ AUTHOR_NAME_POLICY: "full" }, "csv", file);
  assert.equal(full.code, 0, full.stderr);
  assert.deepEqual(await authors(), ["Marcus Hill", "élodie de la fontaine", "Prince"], "a re-import updates the name");
  assert.equal((await runImportWith({ AUTHOR_NAME_POLICY: "first" }, "csv", file)).code, 0);
  assert.deepEqual(await authors(), ["Marcus", "élodie", "Prince"]);
  const bad = await runImportWith({ AUTHOR_NAME_POLICY: "last" }, "csv", file);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /AUTHOR_NAME_POLICY/);
});

test("a reply without a reply date takes its review's date, and the summary says how many", async () => {
  const file = join(content, "trustpilot.csv");
  await writeFile(
    file,
    "Review ID,Review Created (UTC),Review Stars,Review Content,Reviewer Name,Reply Content\n" +
      't-1,2025-03-01 14:02:11,5,Great.,Ann Brown,"Thanks, Ann!"\n' +
      "t-2,2025-03-02,4,Good.,Bo Chen,\n",
  );
  const run = await runImport(
    "csv",
    file,
    "--map",
    "id=Review ID",
    "--map",
    "date=Review Created (UTC)",
    "--map",
    "rating=Review Stars",
    "--map",
    "text=Review Content",
    "--map",
    "author=Reviewer Name",
    "--map",
    "response=Reply Content",
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^created 2, updated 0, unchanged 0, skipped 0$/m);
  assert.match(run.stdout, /1 reply has no date of its own and takes its review's date/);
  assert.deepEqual((await readReview("reviews/csv/t-1.json")).response, { text: "Thanks, Ann!", date: "2025-03-01" });
  assert.equal((await readReview("reviews/csv/t-2.json")).response, undefined);
});
