// The search index encoded in a worker thread (large builds) is the index encoded on the main thread, and a
// dataset that does not match its bytes is refused there as well.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readContent } from "../../src/build/read-content.ts";
import { startIndexing } from "../../src/build/write-search-index.ts";
import { publishDataset } from "../../src/domain/publish-reviews.ts";
import { encodeReviewIndex } from "../../src/domain/search/index-writer.ts";
import { validateContent } from "../../src/domain/validate-content.ts";
import { SAMPLE_CONTENT } from "../helpers/paths.ts";

async function sampleDataset() {
  const raw = await readContent(SAMPLE_CONTENT);
  return publishDataset(validateContent(raw.business, raw.reviews)).dataset;
}

test("the worker thread's index equals the main thread's, byte for byte", async () => {
  const dataset = await sampleDataset();
  assert.ok(dataset.reviews.length > 100, "the sample has reviews");
  const json = new TextEncoder().encode(JSON.stringify(dataset));
  const inWorker = await startIndexing(dataset, json, 1)();
  const here = encodeReviewIndex(dataset, json);
  assert.ok(Buffer.from(inWorker).equals(Buffer.from(here)));
  // Below the threshold the same index is made on this thread.
  assert.ok(Buffer.from(await startIndexing(dataset, json, Number.POSITIVE_INFINITY)()).equals(Buffer.from(here)));
});

test("the worker thread refuses bytes that are not the dataset's JSON", async () => {
  const dataset = await sampleDataset();
  const json = new TextEncoder().encode(JSON.stringify(dataset).replace('"rating":5', '"rating": 5'));
  await assert.rejects(startIndexing(dataset, json, 1)(), /not JSON\.stringify of the dataset/);
});
