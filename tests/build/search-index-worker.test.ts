// The search index encoded in a worker thread (large builds) is the index encoded on the main thread, and a
// dataset that does not match its bytes is refused there as well.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readContent } from "../../src/build/read-content.ts";
import { packReviews, startIndexing, unpackReviews } from "../../src/build/write-search-index.ts";
import { publishDataset } from "../../src/domain/publish-reviews.ts";
import { encodeReviewIndex, indexCatalog, serialiseDataset } from "../../src/domain/search/index-writer.ts";
import { validateContent } from "../../src/domain/validate-content.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

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

test("what the worker is sent unpacks to what the index reads: titles absent, empty or not, non-ASCII text, mentions outside the catalog left out", async () => {
  const dataset = await sampleDataset();
  const [a, b, c] = dataset.reviews;
  const { title: _, ...untitled } = a;
  const reviews: typeof dataset.reviews = [
    untitled,
    { ...b, title: "", text: "Ünïcode 😀 text, ﬁne" },
    { ...c, mentions: { ...c.mentions, technicians: ["nobody", ...c.mentions.technicians] } },
    ...dataset.reviews.slice(3),
  ];
  const changed = { ...dataset, reviews };
  const catalog = indexCatalog(dataset.business);
  const back = unpackReviews(packReviews(reviews, catalog), catalog);
  assert.equal(back.length, reviews.length);
  assert.equal("title" in back[0], false);
  assert.equal(back[1].title, "");
  assert.equal(back[1].text, "Ünïcode 😀 text, ﬁne");
  assert.deepEqual(back[2].mentions.technicians, c.mentions.technicians);
  assert.deepEqual(back[3], {
    id: reviews[3].id,
    date: reviews[3].date,
    updated: reviews[3].updated,
    rating: reviews[3].rating,
    ...(reviews[3].title === undefined ? {} : { title: reviews[3].title }),
    text: reviews[3].text,
    mentions: { technicians: reviews[3].mentions.technicians, services: reviews[3].mentions.services },
  });
  // And the index made from them in the worker is the main thread's, byte for byte.
  const json = new TextEncoder().encode(JSON.stringify(changed));
  const made = serialiseDataset(changed);
  assert.ok(Buffer.from(made.json).equals(Buffer.from(json)));
  const inWorker = await startIndexing(changed, made.json, 1, made.reviewOffsets)();
  assert.ok(Buffer.from(inWorker).equals(Buffer.from(encodeReviewIndex(changed, json))));
});
