// The analysis cache (src/build/analysis/analysis-cache.ts) gives what a clean analysis gives, whatever state its
// file is in: damaged lines and a damaged or foreign header are misses (analysed again), never wrong records;
// changed, added and removed reviews are handled as a clean run would.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { analyseWithCache } from "../../src/build/analysis/analysis-cache.ts";
import { readContent } from "../../src/build/read-content.ts";
import { buildInsights } from "../../src/domain/insights/build-insights.ts";
import { publishDataset } from "../../src/domain/publish-reviews.ts";
import { serialiseDataset } from "../../src/domain/search/index-writer.ts";
import { type ValidContent, validateContent } from "../../src/domain/validate-content.ts";
import { tempDir } from "../helpers/paths.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

const NO_KEYS = new Map<string, string>();

async function sample(): Promise<ValidContent> {
  const raw = await readContent(SAMPLE_CONTENT);
  return validateContent(raw.business, raw.reviews);
}

/** Everything the build makes from the analysis: reviews.json's bytes and insights.json's. */
async function outputs(content: ValidContent, cacheDir: string | undefined) {
  const analysis = await analyseWithCache(content, NO_KEYS, cacheDir);
  const published = publishDataset(content, { publish: analysis.publish, piiPolicy: "off" });
  const json = Buffer.from(serialiseDataset(published.dataset, analysis.jsonOf).json).toString("utf8");
  const insights = JSON.stringify(buildInsights(published, undefined, analysis.partsOf));
  return { json, insights, analysed: analysis.analysed, cached: analysis.cached };
}

test("damaged lines, a damaged header and another fingerprint are misses; the outputs are a clean run's", async () => {
  const content = await sample();
  const clean = await outputs(content, undefined);
  const cache = await tempDir("analysis-cache");
  const file = join(cache, "analysis.ndjson");
  const first = await outputs(content, cache);
  assert.equal(first.cached, 0);
  assert.ok(first.analysed > 100, `the sample has verified reviews (${first.analysed})`);
  assert.deepEqual([first.json, first.insights], [clean.json, clean.insights]);

  const text = await readFile(file, "utf8");
  const lines = text.split("\n");
  // A line cut short (an interrupted append), a line of garbage and a line whose record is not JSON.
  lines[1] = lines[1].slice(0, lines[1].length / 2);
  lines[2] = "not a cache line";
  lines[3] = lines[3].replace("\t{", "\t{{");
  await writeFile(file, lines.join("\n"));
  const damaged = await outputs(content, cache);
  assert.equal(damaged.analysed, 3);
  assert.deepEqual([damaged.json, damaged.insights], [clean.json, clean.insights]);

  // Another fingerprint (other code, versions, business or policy): nothing is reused.
  await writeFile(file, text.replace(/^\{"fingerprint":"[0-9a-f]+"\}/, '{"fingerprint":"0000"}'));
  const foreign = await outputs(content, cache);
  assert.equal(foreign.cached, 0);
  assert.deepEqual([foreign.json, foreign.insights], [clean.json, clean.insights]);

  // A header that is not JSON: the file is started over.
  await writeFile(file, `{"finger${text}`);
  const header = await outputs(content, cache);
  assert.equal(header.cached, 0);
  assert.deepEqual([header.json, header.insights], [clean.json, clean.insights]);
});

test("a changed, an added and a removed review: analysed or dropped as a clean run would", async () => {
  const content = await sample();
  const cache = await tempDir("analysis-cache");
  await outputs(content, cache);
  const verified = content.reviews.filter((r) => r.content.verified);
  const [changed, removed, template] = verified;
  const reviews = content.reviews
    .filter((r) => r !== removed)
    .map((r) => (r === changed ? { ...r, content: { ...r.content, text: `${r.content.text} It leaked again.` } } : r));
  reviews.push({ ...template, id: "added-review", file: "reviews/added-review.json" });
  const next = { ...content, reviews };
  const clean = await outputs(next, undefined);
  const cached = await outputs(next, cache);
  assert.equal(cached.analysed, 2);
  assert.equal(cached.cached, verified.length - 2);
  assert.deepEqual([cached.json, cached.insights], [clean.json, clean.insights]);
  assert.ok(!cached.json.includes(`"id":"${removed.id}"`), "the removed review is not published");
});
