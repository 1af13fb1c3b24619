// The search index file: written and read by the domain core; a reader refuses another version, a truncated
// file or an index written for other bytes of reviews.json, each with a message naming the file.
import assert from "node:assert/strict";
import { test } from "node:test";
import { aggregateRating } from "../../src/domain/aggregate.ts";
import type { Business, ReviewRecord } from "../../src/domain/schemas/published.ts";
import { INDEX_FILE, INDEX_VERSION } from "../../src/domain/search/index-format.ts";
import { encodeReviewIndex, serialiseDataset } from "../../src/domain/search/index-writer.ts";
import { openReviewIndex } from "../../src/domain/search/review-index.ts";
import { searchReviews } from "../../src/domain/search/search-reviews.ts";
import { reviewsSince } from "../../src/domain/since.ts";
import { searchBusiness } from "../helpers/search-business.ts";

const business = searchBusiness({
  services: [{ id: "ac", name: "AC" }],
  technicians: [{ id: "ana", name: "Ana Martínez" }],
} as Partial<Business>);

const review = (id: string, date: string, text: string, title?: string): ReviewRecord => ({
  id,
  rating: 4,
  date,
  updated: `${date}T10:00:00Z`,
  ...(title ? { title } : {}),
  text,
  author: "Zoë",
  source: "direct",
  language: "en",
  mentions: { technicians: ["ana"], services: [], service_areas: [] },
  sentiment: { score: 0.5, label: "positive" },
  aspects: [],
});

const reviews = [
  review("r3", "2025-03-01", 'Ana Martínez fixed the "heat" pump ☃', "Crème brûlée service"),
  review("r2", "2025-02-01", "ANA MARTINEZ was on time"),
  review("r1", "2025-01-01", "Nothing to say\nat all"),
];
const dataset = { business, aggregate_rating: aggregateRating(reviews), reviews };
const json = Buffer.from(JSON.stringify(dataset));
const bytes = encodeReviewIndex(dataset, json);

test("reviews come back as the exact bytes of reviews.json and as equal objects", () => {
  const index = openReviewIndex(bytes, json);
  assert.equal(index.count, 3);
  assert.deepEqual(index.business, business);
  reviews.forEach((r, rank) => {
    assert.equal(index.reviewBytes(rank).toString("utf8"), JSON.stringify(r));
    assert.deepEqual(index.review(rank), r);
    assert.equal(index.rankOf(r.id), rank);
  });
  assert.equal(index.rankOf("nope"), -1);
  assert.deepEqual(index.byId.get("r2"), reviews[1]);
  assert.deepEqual(
    reviewsSince(index, "2025-02-01").reviews.map((r) => r.id),
    ["r2", "r3"],
  );
});

test("diacritics fold on both sides: Martínez finds Martinez and the other way round", () => {
  const index = openReviewIndex(bytes, json);
  const ids = (query: string) => {
    const out = searchReviews(index, { query, limit: 10 });
    assert.ok(out.ok);
    return out.result.reviews.map((r) => r.id).sort();
  };
  assert.deepEqual(ids("Martínez"), ["r2", "r3"]);
  assert.deepEqual(ids("martinez"), ["r2", "r3"]);
  assert.deepEqual(ids("CREME BRULEE"), ["r3"]);
  assert.deepEqual(ids("☃"), ["r3"]);
  assert.deepEqual(ids("\u0301\u0301"), [], "a query of combining marks alone matches nothing (and ends)");
});

test("an index of another version is refused with a message naming the file and both versions", () => {
  const other = new Uint8Array(bytes);
  new DataView(other.buffer).setUint32(4, INDEX_VERSION + 1, true);
  assert.throws(
    () => openReviewIndex(other, json),
    (e: Error) =>
      e.message.includes(INDEX_FILE) &&
      e.message.includes(`version ${INDEX_VERSION + 1}`) &&
      e.message.includes(`reads version ${INDEX_VERSION}`),
  );
});

test("a truncated index, a foreign file and an index of other reviews.json bytes are refused", () => {
  assert.throws(
    () => openReviewIndex(bytes.subarray(0, bytes.length - 64), json),
    /search-index\.bin: section \w+ is truncated/,
  );
  assert.throws(() => openReviewIndex(new Uint8Array(40), json), /search-index\.bin: not a search index/);
  assert.throws(
    () => openReviewIndex(bytes, Buffer.concat([json, Buffer.from(" ")])),
    /search-index\.bin: was written for another reviews\.json/,
  );
});

test("the writer refuses a reviews.json that is not the dataset's serialisation", () => {
  const pretty = Buffer.from(JSON.stringify(dataset, null, 1));
  assert.throws(() => encodeReviewIndex(dataset, pretty), /not JSON\.stringify of the dataset/);
});

test("serialiseDataset writes JSON.stringify's bytes and each review's offset, which the index takes as they are", () => {
  const made = serialiseDataset(dataset);
  assert.ok(Buffer.from(made.json).equals(json), "the same bytes as JSON.stringify (non-ASCII text included)");
  assert.deepEqual(
    [...made.reviewOffsets]
      .slice(0, -1)
      .map((at, rank) => JSON.parse(json.subarray(at, made.reviewOffsets[rank + 1] - 1).toString())),
    reviews,
  );
  assert.ok(Buffer.from(encodeReviewIndex(dataset, made.json, made.reviewOffsets)).equals(Buffer.from(bytes)));
  assert.throws(() => serialiseDataset({ ...dataset, extra: 1 } as typeof dataset), /unexpected dataset shape/);
});

test("serialiseDataset: no review, one review, and reviews whose JSON the caller gives", () => {
  for (const some of [[], reviews.slice(0, 1), reviews]) {
    const small = { ...dataset, reviews: some };
    const made = serialiseDataset(small, (r) =>
      some.indexOf(r) % 2 === 0 ? Buffer.from(JSON.stringify(r)) : undefined,
    );
    assert.ok(Buffer.from(made.json).equals(Buffer.from(JSON.stringify(small))), `${some.length} reviews`);
    assert.equal(made.json.byteLength, made.json.buffer.byteLength, "the bytes fill their buffer");
    assert.equal(made.reviewOffsets.length, some.length + 1);
  }
});
