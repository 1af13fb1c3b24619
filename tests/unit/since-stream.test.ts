// The since answer as the sidecar streams it (chunks assembled from the reviews' bytes, a length computed from
// their lengths alone) and as it builds a small one whole, against the answer built from objects, for random
// dates at 1k and 10k reviews; and pages with cursors concatenate to the whole list, also across a rebuild that
// drops a review.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import fc from "fast-check";
import {
  type ReadAt,
  reviewListBody,
  reviewListHead,
  reviewListLength,
  writeReviewList,
} from "../../sidecar/build-store/review-list-body.ts";
import { aggregateRating } from "../../src/domain/aggregate.ts";
import { compareNewest } from "../../src/domain/order.ts";
import type { ReviewRecord } from "../../src/domain/schemas/published.ts";
import { encodeReviewIndex } from "../../src/domain/search/index-writer.ts";
import { buildReviewIndex, openReviewIndex } from "../../src/domain/search/review-index.ts";
import { reviewsSince, sinceEtagOf, sincePage } from "../../src/domain/since.ts";
import { searchBusiness, searchRecord } from "../helpers/search-business.ts";

const day = (n: number) => new Date(Date.UTC(2020, 0, 1 + n)).toISOString().slice(0, 10);

/** `count` reviews over about three years, several per day, newest first (as reviews.json holds them). */
function records(count: number, seed: number): ReviewRecord[] {
  let x = seed;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
  const out: ReviewRecord[] = [];
  for (let i = 0; i < count; i++) {
    const d = day(next() % 1100);
    out.push(
      searchRecord({
        id: `r-${i}`,
        rating: (next() % 5) + 1,
        date: d,
        updated: `${d}T${String(next() % 24).padStart(2, "0")}:00:00Z`,
        text: `Review ${i} ${"é".repeat(next() % 40)} "quoted"`,
      }),
    );
  }
  return out.sort(compareNewest);
}

/** What writeReviewList writes, as a client receives it: each chunk copied when written (its buffer is reused). */
function written(write: (out: Writable) => void): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    const out = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        setImmediate(done); // handed over later, as a socket does
      },
    });
    out.on("finish", () => resolve(Buffer.concat(chunks)));
    out.on("error", reject);
    write(out);
  });
}

for (const size of [1_000, 10_000]) {
  const business = searchBusiness();
  const reviews = records(size, size);
  const dataset = { business, aggregate_rating: aggregateRating(reviews), reviews };
  const json = Buffer.from(JSON.stringify(dataset));
  const index = openReviewIndex(encodeReviewIndex(dataset, json), json);
  const readAt: ReadAt = async (into, at, length, position) => json.copy(into, at, position, position + length);

  test(`streamed since = the answer built whole, byte for byte (${size} reviews)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -10, max: 1110 }), fc.integer({ min: 1, max: 200_000 }), async (d, chunk) => {
        const date = day(d);
        const found = sincePage(index, { date });
        assert.ok(found.ok);
        const head = reviewListHead(found.page.envelope);
        const whole = JSON.stringify(reviewsSince(index, date));
        const built = reviewListBody({ index }, found.page.envelope, found.page.ranks);
        assert.equal(built.toString("utf8"), whole);
        const streamed = await written((out) => writeReviewList(out, index, head, found.page.ranks, readAt, chunk));
        assert.equal(streamed.toString("utf8"), whole);
        assert.equal(reviewListLength(index, head, found.page.ranks), streamed.length);
      }),
      { numRuns: size === 1_000 ? 60 : 15 },
    );
  });

  test(`pages with cursors concatenate to the whole list (${size} reviews)`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1100 }), fc.integer({ min: 1, max: 1000 }), (d, limit) => {
        const date = day(d);
        const whole = reviewsSince(index, date).reviews.map((r) => r.id);
        const paged: string[] = [];
        let cursor: string | undefined;
        for (;;) {
          const found = sincePage(index, { date, limit, cursor });
          assert.ok(found.ok);
          const { envelope, ranks } = found.page;
          assert.equal(envelope.total, whole.length);
          assert.equal(envelope.count, ranks.length);
          assert.ok(ranks.length <= limit);
          for (const r of ranks) paged.push(index.review(r).id);
          if (envelope.next_cursor === null) break;
          cursor = envelope.next_cursor;
        }
        assert.deepEqual(paged, whole);
      }),
      { numRuns: size === 1_000 ? 40 : 8 },
    );
  });
}

test("a cursor survives a rebuild: no review skipped or repeated when one already sent is removed", () => {
  const all = records(500, 7);
  const before = buildReviewIndex(searchBusiness(), all);
  const date = day(100);
  const first = sincePage(before, { date, limit: 50 });
  assert.ok(first.ok && first.page.envelope.next_cursor);
  const sent = Array.from(first.page.ranks, (r) => before.review(r).id);
  const after = buildReviewIndex(
    searchBusiness(),
    all.filter((r) => r.id !== sent[10]),
  );
  const rest: string[] = [];
  let cursor: string | null | undefined = first.page.envelope.next_cursor;
  while (cursor) {
    const page = sincePage(after, { date, limit: 50, cursor });
    assert.ok(page.ok);
    for (const r of page.page.ranks) rest.push(after.review(r).id);
    cursor = page.page.envelope.next_cursor;
  }
  const expected = reviewsSince(after, date)
    .reviews.map((r) => r.id)
    .filter((id) => !sent.includes(id));
  assert.deepEqual(rest, expected);
});

test("a bad or foreign cursor is an issue; validators differ by date, limit, cursor and build", () => {
  const index = buildReviewIndex(searchBusiness(), records(200, 3));
  for (const cursor of ["x", Buffer.from("[1,2]").toString("base64url")]) {
    const r = sincePage(index, { date: day(10), cursor });
    assert.deepEqual(r.ok ? undefined : r.issues[0].code, "invalid_cursor");
  }
  const page = sincePage(index, { date: day(10), limit: 5 });
  assert.ok(page.ok && page.page.envelope.next_cursor);
  const other = sincePage(index, { date: day(11), cursor: page.page.envelope.next_cursor });
  assert.match(other.ok ? "" : other.issues[0].message, /another date/);
  const tags = new Set([
    sinceEtagOf("a", { date: day(1) }),
    sinceEtagOf("a", { date: day(2) }),
    sinceEtagOf("a", { date: day(1), limit: 5 }),
    sinceEtagOf("a", { date: day(1), cursor: "c" }),
    sinceEtagOf("b", { date: day(1) }),
  ]);
  assert.equal(tags.size, 5);
});
