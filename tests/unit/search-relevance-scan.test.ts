// The index's two ways of scoring a query: one rank at a time, and one scan over a span of ranks (used when
// the candidates are dense). They must agree on every rank, including hits that would run from a title into
// its text or from one review into the next, and overlapping repeats ("aa" in "aaa" counts once).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { compareNewest } from "../../src/domain/order.ts";
import type { ReviewRecord } from "../../src/domain/schemas/published.ts";
import { buildReviewIndex } from "../../src/domain/search/review-index.ts";
import { foldText } from "../../src/domain/search/text-match.ts";
import { searchBusiness, searchRecord } from "../helpers/search-business.ts";

const business = searchBusiness();

const review = (i: number, text: string, title?: string): ReviewRecord =>
  searchRecord({
    id: `r${String(i).padStart(3, "0")}`,
    rating: 3,
    date: "2025-01-01",
    updated: "2025-01-01T10:00:00Z",
    ...(title ? { title } : {}),
    text,
  });

const scores = (reviews: ReviewRecord[], query: string, lo: number, hi: number) => {
  const index = buildReviewIndex(business, [...reviews].sort(compareNewest));
  const q = Buffer.from(foldText(query));
  const byRank = Array.from({ length: hi - lo }, (_, i) => index.relevance(lo + i, q));
  return { byRank, scan: [...index.relevanceOfRange(q, lo, hi)] };
};

test("a hit across a field's end does not count; repeats count without overlap; a title hit counts 3", () => {
  // Ranks follow newest first; all dates are equal, so ids decide: r002 is rank 0.
  const reviews = [review(2, "ab", "xa"), review(1, "aaaa", "aaa"), review(0, "a", "b")];
  const { byRank, scan } = scores(reviews, "aa", 0, 3);
  assert.deepEqual(scan, byRank);
  assert.deepEqual(scan.toSorted(), [0, 0, 3 * 1 + 2].toSorted());
});

test("the scan over any span equals scoring rank by rank", () => {
  const piece = fc.constantFrom("a", "aa", "b", "ab ", "é", "É", "ﬁ", " ", "\n");
  const field = fc.array(piece, { maxLength: 6 }).map((p) => p.join(""));
  fc.assert(
    fc.property(
      fc.array(fc.record({ title: fc.option(field, { nil: undefined }), text: field }), {
        minLength: 1,
        maxLength: 12,
      }),
      fc.constantFrom("a", "aa", "aaa", "ab", "b a", "e", "fi", "ba", "\n"),
      fc.nat(),
      fc.nat(),
      (rs, query, x, y) => {
        const reviews = rs.map((r, i) => review(i, r.text, r.title));
        const lo = x % reviews.length;
        const hi = lo + (y % (reviews.length - lo + 1));
        const { byRank, scan } = scores(reviews, query, lo, hi);
        assert.deepEqual(scan, byRank);
      },
    ),
    { numRuns: 300 },
  );
});
