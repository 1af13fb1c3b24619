// The indexed search against a naive scan over random datasets and random filter combinations,
// including paging through every result with the cursor.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { compareNewest, compareOldest } from "../../src/domain/order.ts";
import { SEARCH_SORTS, type SearchParams } from "../../src/domain/schemas/api.ts";
import { ASPECTS, Sentiment } from "../../src/domain/schemas/common.ts";
import type { Business, ReviewRecord } from "../../src/domain/schemas/published.ts";
import { buildReviewIndex } from "../../src/domain/search/review-index.ts";
import { searchReviews } from "../../src/domain/search/search-reviews.ts";
import { searchBusiness } from "../helpers/search-business.ts";

const WORDS = [
  "on time",
  "great",
  "Late",
  "price",
  "ÉTÉ",
  "ﬁx",
  "ok",
  "Tess",
  "a",
  "ab",
  "cleaned",
  "no-show",
  "Martínez",
  "Martinez",
];
const TECHS = ["ann-lee", "bo-ray", "cy-dunn"];
const SERVICES = ["ac", "drain", "panel"];

const business = searchBusiness({
  services: SERVICES.map((id) => ({ id, name: id.toUpperCase() })),
  technicians: TECHS.map((id) => ({ id, name: id.replace("-", " "), aliases: [id.slice(0, 2)] })),
} as Partial<Business>);

const date = fc.integer({ min: 0, max: 60 }).map((d) => new Date(Date.UTC(2024, 0, 1 + d)).toISOString().slice(0, 10));

const review = fc.record({
  rating: fc.integer({ min: 1, max: 5 }),
  date,
  hour: fc.integer({ min: 0, max: 3 }),
  title: fc.option(
    fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }).map((w) => w.join(" ")),
    { nil: undefined },
  ),
  text: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((w) => w.join(" ")),
  technicians: fc.subarray(TECHS),
  services: fc.subarray(SERVICES),
  aspects: fc.array(
    fc.record({
      aspect: fc.constantFrom(...ASPECTS.slice(0, 3)),
      polarity: fc.constantFrom(...Sentiment.options),
      quote: fc.constantFrom("great", '"aspect":"speed","polarity":"positive"'),
    }),
    { maxLength: 3 },
  ),
});

const dataset = fc.array(review, { maxLength: 60 }).map((rs) =>
  rs
    .map(
      (r, i): ReviewRecord => ({
        id: `r${String(i).padStart(3, "0")}`,
        rating: r.rating,
        date: r.date,
        updated: `${r.date}T0${r.hour}:00:00Z`,
        ...(r.title ? { title: r.title } : {}),
        text: r.text,
        author: "A",
        source: "direct",
        language: "en",
        mentions: { technicians: r.technicians, services: r.services, service_areas: [] },
        sentiment: { score: 0, label: "neutral" },
        aspects: r.aspects,
      }),
    )
    .sort(compareNewest),
);

const params = fc.record(
  {
    rating: fc.integer({ min: 1, max: 5 }),
    min_rating: fc.constantFrom(1, 2.5, 3, 4.2, 5),
    since: date,
    until: date,
    query: fc.constantFrom(
      "on",
      "ON TIME",
      "é",
      "e",
      "ete",
      "fix",
      "a",
      "ab",
      "no-show",
      "zzz",
      "e t",
      "martínez",
      "MARTINEZ",
    ),
    mentions_technician: fc.constantFrom("ann-lee", "ANN LEE", "an", "nobody"),
    mentions_service: fc.constantFrom("ac", "DRAIN", "none"),
    aspect: fc.constantFrom(...ASPECTS.slice(0, 3), "speed" as const),
    aspect_polarity: fc.constantFrom(...Sentiment.options),
    sort: fc.constantFrom(...SEARCH_SORTS),
  },
  { requiredKeys: [] },
);

// Written independently of foldText: NFKC, lowercase, then every nonspacing mark removed.
const fold = (s: string) =>
  s
    .normalize("NFKC")
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{Mn}/gu, "")
    .normalize("NFC");
const count = (h: string, n: string) => h.split(n).length - 1;

function oracle(reviews: ReviewRecord[], p: Partial<SearchParams>): string[] {
  const tech = p.mentions_technician
    ? business.technicians.find((t) =>
        [t.id, t.name, ...(t.aliases ?? [])].some((k) => fold(k) === fold(p.mentions_technician as string)),
      )?.id
    : undefined;
  const q = p.query === undefined ? undefined : fold(p.query);
  const matches = reviews.filter(
    (r) =>
      (p.rating === undefined || r.rating === p.rating) &&
      (p.min_rating === undefined || r.rating >= p.min_rating) &&
      (p.since === undefined || r.date >= p.since) &&
      (p.until === undefined || r.date <= p.until) &&
      (p.mentions_technician === undefined || (tech !== undefined && r.mentions.technicians.includes(tech))) &&
      (p.mentions_service === undefined || r.mentions.services.includes(p.mentions_service.toLowerCase())) &&
      ((p.aspect === undefined && p.aspect_polarity === undefined) ||
        r.aspects.some(
          (a) =>
            (p.aspect === undefined || a.aspect === p.aspect) &&
            (p.aspect_polarity === undefined || a.polarity === p.aspect_polarity),
        )) &&
      (q === undefined || fold(`${r.title ?? ""}\n${r.text}`).includes(q) || fold(r.title ?? "").includes(q)),
  );
  const score = (r: ReviewRecord) => (q === undefined ? 1 : 3 * count(fold(r.title ?? ""), q) + count(fold(r.text), q));
  const sort = p.sort ?? (q === undefined ? "newest" : "relevance");
  const order: Record<typeof sort, (a: ReviewRecord, b: ReviewRecord) => number> = {
    newest: compareNewest,
    oldest: compareOldest,
    highest: (a, b) => b.rating - a.rating || compareNewest(a, b),
    lowest: (a, b) => a.rating - b.rating || compareNewest(a, b),
    relevance: (a, b) => score(b) - score(a) || compareNewest(a, b),
  };
  return matches
    .filter((r) => score(r) > 0)
    .sort(order[sort])
    .map((r) => r.id);
}

/** Pages through every result with the cursor and compares the ids, in order, with the oracle's. */
function pagesEqualOracle(reviews: ReviewRecord[], p: Partial<SearchParams>, limit: number) {
  const index = buildReviewIndex(business, reviews);
  const expected = oracle(reviews, p);
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const out = searchReviews(index, { ...p, limit, cursor } as SearchParams);
    assert.ok(out.ok);
    assert.equal(out.result.total, expected.length);
    seen.push(...out.result.reviews.map((r) => r.id));
    if (out.result.next_cursor === null) break;
    cursor = out.result.next_cursor;
  }
  assert.deepEqual(seen, expected);
}

test("every sort and aspect filter equals a plain scan, page by page through the cursor", () => {
  const few = fc.record(
    { aspect: fc.constantFrom(...ASPECTS.slice(0, 3)), aspect_polarity: fc.constantFrom(...Sentiment.options) },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(
      dataset,
      fc.constantFrom(...SEARCH_SORTS),
      few,
      fc.integer({ min: 1, max: 4 }),
      (reviews, sort, p, limit) => pagesEqualOracle(reviews, { ...p, sort }, limit),
    ),
    { numRuns: 300 },
  );
});

test("search equals a plain scan, page by page through the cursor", () => {
  fc.assert(
    fc.property(dataset, params, fc.integer({ min: 1, max: 7 }), (reviews, p, limit) => {
      fc.pre(!(p.since && p.until && p.since > p.until));
      const index = buildReviewIndex(business, reviews);
      const expected = oracle(reviews, p);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 100; pages++) {
        const out = searchReviews(index, { ...p, limit, cursor } as SearchParams);
        assert.ok(out.ok);
        assert.equal(out.result.total, expected.length);
        assert.ok(out.result.count <= limit);
        seen.push(...out.result.reviews.map((r) => r.id));
        if (out.result.next_cursor === null) break;
        cursor = out.result.next_cursor;
      }
      assert.deepEqual(seen, expected);
    }),
    { numRuns: 400 },
  );
});
