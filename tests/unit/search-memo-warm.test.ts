// Before a new build is switched in, its search memo is filled with the filter sets last asked of the old
// build; the remembered matches are those of the new build's index, so answers equal a search without memo.
import assert from "node:assert/strict";
import { test } from "node:test";
import { searchMemoOf, warmSearchMemo } from "../../sidecar/build-store/search-memo.ts";
import type { Snapshot } from "../../sidecar/build-store/snapshot.ts";
import { compareNewest } from "../../src/domain/order.ts";
import type { SearchParams } from "../../src/domain/schemas/api.ts";
import type { ReviewRecord } from "../../src/domain/schemas/published.ts";
import { filterFingerprint } from "../../src/domain/search/cursor.ts";
import { buildReviewIndex } from "../../src/domain/search/review-index.ts";
import { searchReviews } from "../../src/domain/search/search-reviews.ts";
import { searchBusiness, searchRecord } from "../helpers/search-business.ts";

const business = searchBusiness();

const review = (i: number, rating: number, text: string): ReviewRecord =>
  searchRecord({
    id: `r${i}`,
    rating,
    date: `2025-01-${String(10 + i).padStart(2, "0")}`,
    updated: `2025-01-${String(10 + i).padStart(2, "0")}T10:00:00Z`,
    text,
  });

const snapshotOf = (reviews: ReviewRecord[]) =>
  ({ index: buildReviewIndex(business, [...reviews].sort(compareNewest)) }) as Snapshot;

test("a new build's memo holds the old build's recent filter sets, computed on the new index", async () => {
  const old = snapshotOf([review(1, 5, "great work"), review(2, 3, "late"), review(3, 5, "great, great")]);
  const next = snapshotOf([review(1, 5, "great work"), review(2, 5, "great now"), review(4, 2, "great? no")]);
  const asked: SearchParams[] = [
    { query: "great", limit: 1 },
    { rating: 5, limit: 2 },
    { query: "late", min_rating: 2, limit: 5 },
  ];
  for (const p of asked) assert.ok(searchReviews(old.index, p, searchMemoOf(old)).ok);
  await warmSearchMemo(old, next, Number.POSITIVE_INFINITY);
  for (const p of asked) {
    assert.ok(searchMemoOf(next).get(filterFingerprint(p)), `remembered: ${JSON.stringify(p)}`);
    assert.deepEqual(searchReviews(next.index, p, searchMemoOf(next)), searchReviews(next.index, p));
  }
  assert.equal(searchMemoOf(next).get(filterFingerprint({ query: "never asked" })), undefined);
});

test("with no time left, warming computes nothing (the first request does, as without warming)", async () => {
  const old = snapshotOf([review(1, 5, "great work")]);
  const next = snapshotOf([review(1, 5, "great work"), review(2, 4, "great")]);
  const p: SearchParams = { query: "great", limit: 1 };
  searchReviews(old.index, p, searchMemoOf(old));
  await warmSearchMemo(old, next, -1);
  assert.equal(searchMemoOf(next).get(filterFingerprint(p)), undefined);
});
