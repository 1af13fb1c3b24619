// Analysis in worker threads gives exactly what analysing on this thread gives, in the same order and as the same
// cache lines.
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyseInWorkers } from "../../src/build/analysis/analyse-in-workers.ts";
import { cacheLine, parseCacheLines } from "../../src/build/analysis/cache-line.ts";
import { readContent } from "../../src/build/read-content.ts";
import { createInsightParts } from "../../src/domain/insights/review-parts.ts";
import { createReviewPublisher } from "../../src/domain/publish-reviews.ts";
import { validateContent } from "../../src/domain/validate-content.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

test("worker threads publish the same records and insight parts as the main thread", async () => {
  const raw = await readContent(SAMPLE_CONTENT);
  const content = validateContent(raw.business, raw.reviews);
  // The sample repeated under new ids; the threshold lowered so that worker threads take shares.
  const items = Array.from({ length: 2400 }, (_, i) => {
    const r = content.reviews[i % content.reviews.length];
    return { id: `${r.id}-${i}`, key: `key-${i}`, content: r.content };
  });
  const publish = createReviewPublisher(content.business);
  const partsOf = createInsightParts(content.business);
  const expected = items.map(({ id, content: c }) => {
    const published = publish(id, c);
    return { published, parts: partsOf(published.record) };
  });
  const { results: actual, lines } = await analyseInWorkers({ business: content.business, items }, 1000);
  assert.equal(actual.length, expected.length);
  // Read back from the workers' lines, each result also carries its record's JSON: exactly JSON.stringify of it.
  for (const a of actual) assert.equal(Buffer.from(a.recordJson ?? []).toString(), JSON.stringify(a.published.record));
  assert.deepEqual(
    actual.map(({ recordJson, ...rest }) => rest),
    expected,
  );
  // The workers' cache lines are the results under their keys, as the main thread writes them.
  const onMain = await analyseInWorkers({ business: content.business, items }, Number.POSITIVE_INFINITY);
  assert.deepEqual(onMain.results, expected);
  assert.equal(lines, onMain.lines);
  assert.deepEqual(
    Array.from(parseCacheLines(lines), ([key]) => key),
    items.map((item) => item.key),
  );
  assert.ok(
    actual.some((a) => a.parts.phrases.length > 0 && a.parts.cues.some((c) => c.length > 0)),
    "the sample has keyphrase candidates and aspect cues",
  );
});

test("a cache line cut short or in another layout is skipped; the record's JSON is kept as written", () => {
  const value = {
    published: { record: { id: "a", text: "tab\there, newline\nthere" }, named: [], label: "x" },
    parts: { phrases: [], cues: [] },
  } as unknown as Parameters<typeof cacheLine>[1];
  const line = cacheLine("k1", value);
  assert.equal(line.split("\t").length, 3, "JSON text holds no raw tab");
  const text = `${line}["k2",{"record":{}},{}]\n${line.slice(0, line.length - 5)}\n${cacheLine("k3", value)}`;
  const parsed = Array.from(parseCacheLines(text));
  assert.deepEqual(
    parsed.map(([key]) => key),
    ["k1", "k3"],
  );
  assert.deepEqual(parsed[0][1].published, value.published);
  assert.equal(Buffer.from(parsed[0][1].recordJson ?? []).toString(), JSON.stringify(value.published.record));
  // A key as reviewKey makes it (64 hex digits) is read without JSON.parse; any other is parsed as JSON.
  const keys = [`${"a".repeat(63)}0`, `${"b".repeat(62)}"\\`, "\u00e9".repeat(64), "A".repeat(64), ""];
  const back = Array.from(parseCacheLines(keys.map((k) => cacheLine(k, value)).join("")), ([key]) => key);
  assert.deepEqual(back, keys);
});

test("cache lines read from the file's bytes keep text outside ASCII; a line cut inside a character is skipped", () => {
  const value = {
    published: { record: { id: "b", text: "Zoë fixed it ✓ 😀, \u2028 too" }, named: [], label: "x" },
    parts: { phrases: ["zoë 😀"], cues: [] },
  } as unknown as Parameters<typeof cacheLine>[1];
  const line = Buffer.from(cacheLine("k1", value));
  // Cut in the last part, inside the emoji's four bytes: both tabs are there, the JSON after them is not whole.
  const cut = line.subarray(0, line.lastIndexOf(Buffer.from("😀")) + 2);
  const bytes = Buffer.concat([cut, Buffer.from("\n"), line, Buffer.from(cacheLine("k2", value))]);
  const parsed = Array.from(parseCacheLines(bytes));
  assert.deepEqual(
    parsed.map(([key]) => key),
    ["k1", "k2"],
  );
  assert.deepEqual(parsed[0][1].published, value.published);
  assert.deepEqual(parsed[0][1].parts, value.parts);
  assert.equal(Buffer.from(parsed[0][1].recordJson ?? []).toString(), JSON.stringify(value.published.record));
  // Read from a byte offset, as the cache reads past its first line.
  const from = line.length + cut.length + 1;
  assert.deepEqual(
    Array.from(parseCacheLines(bytes, from), ([key]) => key),
    ["k2"],
  );
});
