// match=words against a plain implementation over the dataset: for random multi-word queries drawn from the
// dataset's own words (in random case, inflection and order) and random filters, the same reviews, page by page
// through the cursor, in the same order (BM25 computed here by its formula, review by review).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { generateReviews } from "../../scripts/content-generator/generate.ts";
import { compareNewest, compareOldest } from "../../src/domain/order.ts";
import { SEARCH_SORTS, type SearchParams } from "../../src/domain/schemas/api.ts";
import { ASPECTS, Sentiment } from "../../src/domain/schemas/common.ts";
import type { ReviewRecord } from "../../src/domain/schemas/published.ts";
import { buildReviewIndex, type ReviewIndex } from "../../src/domain/search/review-index.ts";
import { searchReviews } from "../../src/domain/search/search-reviews.ts";
import { STOP_WORDS, stemWord } from "../../src/domain/search/word-fold.ts";
import { searchBusiness, searchRecord } from "../helpers/search-business.ts";

const business = searchBusiness();

// Written apart from the index's code: a review's words split on anything that is not a letter or a digit.
const fold = (s: string) =>
  s
    .normalize("NFKC")
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{Mn}/gu, "")
    .normalize("NFC")
    .replace(/['’]/g, "");
const keysOf = (s: string) =>
  fold(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "" && !STOP_WORDS.has(w))
    .map(stemWord);

interface Plain {
  review: ReviewRecord;
  /** key -> 3 x title count + text count */
  weights: Map<string, number>;
  length: number;
}

function plainOf(review: ReviewRecord): Plain {
  const weights = new Map<string, number>();
  let length = 0;
  for (const [text, w] of [
    [review.title ?? "", 3],
    [review.text, 1],
  ] as const) {
    for (const k of keysOf(text)) {
      weights.set(k, (weights.get(k) ?? 0) + w);
      length += w;
    }
  }
  return { review, weights, length };
}

/** Every word of the query in the review, then BM25 (k1 1.2, b 0.75) in thousandths, as documented. */
const plainCache = new WeakMap<ReviewRecord[], Plain[]>();

function oracle(reviews: ReviewRecord[], p: Partial<SearchParams>): string[] {
  const plain = plainCache.get(reviews) ?? reviews.map(plainOf);
  plainCache.set(reviews, plain);
  const keys = [...new Set(keysOf(p.query ?? ""))].sort();
  const n = reviews.length;
  const average = plain.reduce((s, r) => s + r.length, 0) / n || 1;
  const df = (k: string) => plain.filter((r) => r.weights.has(k)).length;
  const idf = new Map(keys.map((k) => [k, Math.log(1 + (n - df(k) + 0.5) / (df(k) + 0.5))]));
  const score = (r: Plain) => {
    let s = 0;
    for (const k of keys) {
      const w = Math.min(255, r.weights.get(k) ?? 0);
      s += ((idf.get(k) as number) * w * 2.2) / (w + 1.2 * (1 - 0.75 + (0.75 * r.length) / average));
    }
    return Math.round(s * 1000);
  };
  const found = plain.filter(
    (r) =>
      keys.every((k) => r.weights.has(k)) &&
      (p.rating === undefined || r.review.rating === p.rating) &&
      (p.since === undefined || r.review.date >= p.since) &&
      (p.aspect_polarity === undefined || r.review.aspects.some((a) => a.polarity === p.aspect_polarity)),
  );
  const sort = p.sort ?? "relevance";
  const order: Record<typeof sort, (a: Plain, b: Plain) => number> = {
    newest: (a, b) => compareNewest(a.review, b.review),
    oldest: (a, b) => compareOldest(a.review, b.review),
    highest: (a, b) => b.review.rating - a.review.rating || compareNewest(a.review, b.review),
    lowest: (a, b) => a.review.rating - b.review.rating || compareNewest(a.review, b.review),
    relevance: (a, b) => score(b) - score(a) || compareNewest(a.review, b.review),
  };
  return found.sort(order[sort]).map((r) => r.review.id);
}

function pagesEqualOracle(index: ReviewIndex, reviews: ReviewRecord[], p: Partial<SearchParams>, limit: number) {
  const expected = oracle(reviews, p);
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const out = searchReviews(index, { ...p, match: "words", limit, cursor } as SearchParams);
    assert.ok(out.ok, JSON.stringify(out));
    assert.equal(out.result.total, expected.length, JSON.stringify(p));
    seen.push(...out.result.reviews.map((r) => r.id));
    if (out.result.next_cursor === null) break;
    cursor = out.result.next_cursor;
  }
  assert.deepEqual(seen, expected, JSON.stringify(p));
}

/** A word as a person might type it: any case, sometimes inflected. */
const typed = (word: string) =>
  fc
    .record({ upper: fc.boolean(), ending: fc.constantFrom("", "", "s", "ed", "ing") })
    .map(({ upper, ending }) => (upper ? word.toUpperCase() : word) + (/^[a-z]+$/i.test(word) ? ending : ""));

const filters = fc.record(
  {
    rating: fc.integer({ min: 1, max: 5 }),
    since: fc.constantFrom("2018-01-01", "2024-06-01"),
    aspect_polarity: fc.constantFrom(...Sentiment.options),
    sort: fc.constantFrom(...SEARCH_SORTS),
  },
  { requiredKeys: [] },
);

/** A query of 1-4 words taken from the dataset's own reviews, in any order, sometimes with a stop word. */
function queryFrom(reviews: ReviewRecord[]) {
  const words = [...new Set(reviews.flatMap((r) => `${r.title ?? ""} ${r.text}`.split(/[^\p{L}\p{N}'’]+/u)))].filter(
    (w) => w !== "",
  );
  if (words.length === 0) words.push("leak");
  return fc
    .array(
      fc.constantFrom(...words).chain((w) => typed(w)),
      { minLength: 1, maxLength: 4 },
    )
    .chain((ws) => fc.constantFrom(ws.join(" "), `the ${ws.join(", ")}`, [...ws].reverse().join(" ")))
    .filter((q) => keysOf(q).length > 0);
}

// The generator's own reviews: real sentences ("The water heater is fixed…") with their repeats and diacritics.
const generated = generateReviews({ count: 400, seed: 11, from: "2016-01-01", to: "2026-11-15" })
  .map((f, i) => {
    const j = f.json as { rating: number; date: string; title?: string; text: string };
    return searchRecord({
      id: `g${String(i).padStart(4, "0")}`,
      rating: j.rating,
      date: j.date,
      updated: `${j.date}T12:00:00Z`,
      ...(j.title ? { title: j.title } : {}),
      text: j.text,
      aspects: i % 3 === 0 ? [{ aspect: ASPECTS[0], polarity: Sentiment.options[i % 2] }] : [],
    } as ReviewRecord);
  })
  .sort(compareNewest);
const generatedIndex = buildReviewIndex(business, generated);

test("words search over the generated reviews equals a plain scan, page by page", () => {
  fc.assert(
    fc.property(queryFrom(generated), filters, fc.integer({ min: 1, max: 40 }), (query, p, limit) =>
      pagesEqualOracle(generatedIndex, generated, { ...p, query }, limit),
    ),
    { numRuns: 150 },
  );
});

test("'heater water' and 'water heater' find the same reviews in the same order", () => {
  const ids = (query: string) => {
    const out = searchReviews(generatedIndex, { query, match: "words", limit: 100 } as SearchParams);
    assert.ok(out.ok);
    return out.result.reviews.map((r) => r.id);
  };
  const a = ids("water heater");
  assert.ok(a.length > 0);
  assert.deepEqual(ids("heater water"), a);
  assert.deepEqual(ids("Heaters WATER"), a);
  assert.deepEqual(oracle(generated, { query: "heater water" }), a);
});

const POOL = [
  "Leak",
  "leaking",
  "leaks",
  "Café",
  "cafe",
  "the",
  "on",
  "no-show",
  "heater's",
  "Heaters",
  "fix",
  "fixed",
];
const smallDataset = fc
  .array(
    fc.record({
      rating: fc.integer({ min: 1, max: 5 }),
      day: fc.integer({ min: 0, max: 40 }),
      title: fc.option(fc.array(fc.constantFrom(...POOL), { maxLength: 3 }), { nil: undefined }),
      text: fc.array(fc.constantFrom(...POOL), { maxLength: 8 }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((rs) =>
    rs
      .map((r, i) => {
        const date = new Date(Date.UTC(2024, 0, 1 + r.day)).toISOString().slice(0, 10);
        return searchRecord({
          id: `r${String(i).padStart(3, "0")}`,
          rating: r.rating,
          date,
          updated: `${date}T10:00:00Z`,
          ...(r.title?.length ? { title: r.title.join(" ") } : {}),
          text: r.text.join(" "),
        });
      })
      .sort(compareNewest),
  );

test("words search over random small datasets of inflected, accented and repeated words equals a plain scan", () => {
  fc.assert(
    fc.property(
      smallDataset.chain((reviews) => fc.tuple(fc.constant(reviews), queryFrom(reviews))),
      filters,
      fc.integer({ min: 1, max: 5 }),
      ([reviews, query], p, limit) =>
        pagesEqualOracle(buildReviewIndex(business, reviews), reviews, { ...p, query }, limit),
    ),
    { numRuns: 300 },
  );
});
