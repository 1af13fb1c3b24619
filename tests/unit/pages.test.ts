// The pure pieces behind the pages for people and crawlers: paths, sitemap, robots, llms.txt, entity pages, feeds.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { computeSite } from "../../src/build/site-data.ts";
import { renderAtomFeed } from "../../src/domain/feeds/atom-feed.ts";
import { renderJsonFeed } from "../../src/domain/feeds/json-feed.ts";
import { renderLlmsTxt, renderRobots } from "../../src/domain/pages/crawler-files.ts";
import { entityIndex, entityPage, reviewsMentioning } from "../../src/domain/pages/entity-page.ts";
import { type PageData, pageDataFromDataset } from "../../src/domain/pages/page-data.ts";
import { reviewDescription, reviewJsonLd } from "../../src/domain/pages/review-page.ts";
import {
  ENTITY_KINDS,
  type EntityKind,
  PAGE_PATHS,
  REVIEWS_PER_PAGE,
  reviewPath,
  reviewsPageCount,
  reviewsPageOf,
  reviewsPagePath,
} from "../../src/domain/pages/site-paths.ts";
import { renderSitemaps, sitemapUrls } from "../../src/domain/pages/sitemap.ts";
import { latestUpdate } from "../../src/domain/publish-reviews.ts";
import type { ReviewRecord } from "../../src/domain/schemas/published.ts";
import { buildReviewIndex } from "../../src/domain/search/review-index.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

const BASE = "https://reviews.example";
let data: PageData;
let reviews: ReviewRecord[];

before(async () => {
  const site = await computeSite({ CONTENT_DIR: SAMPLE_CONTENT, BASE_URL: BASE });
  const index = buildReviewIndex(site.dataset.business, site.dataset.reviews);
  data = pageDataFromDataset(BASE, site.dataset, site.insights, () => index);
  reviews = site.dataset.reviews;
});

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

test("paths: permalinks escape the id; page 1 of the list is /reviews/ itself; ranks map to their page", () => {
  assert.equal(reviewPath("a b"), "/reviews/a%20b/");
  assert.equal(reviewsPagePath(1), PAGE_PATHS.reviews);
  assert.equal(reviewsPagePath(3), "/reviews/page/3/");
  assert.equal(reviewsPageCount(0), 1);
  assert.equal(reviewsPageCount(REVIEWS_PER_PAGE + 1), 2);
  assert.equal(reviewsPageOf(0), 1);
  assert.equal(reviewsPageOf(REVIEWS_PER_PAGE), 2);
});

test("sitemap: every review exactly once with its updated as lastmod, every entity and list page", () => {
  const files = renderSitemaps(data);
  assert.deepEqual([...files.keys()], [PAGE_PATHS.sitemap]);
  const xml = files.get(PAGE_PATHS.sitemap) ?? "";
  const all = locs(xml);
  assert.equal(new Set(all).size, all.length, "no URL twice");
  for (const r of reviews) {
    assert.ok(xml.includes(`<loc>${BASE}${reviewPath(r.id)}</loc><lastmod>${r.updated}</lastmod>`), r.id);
  }
  const pages = reviewsPageCount(reviews.length);
  assert.ok(pages > 1, "the sample has more than one page of reviews");
  for (let p = 1; p <= pages; p++) assert.ok(all.includes(`${BASE}${reviewsPagePath(p)}`), `list page ${p}`);
  for (const kind of Object.keys(ENTITY_KINDS) as EntityKind[]) {
    assert.ok(all.includes(`${BASE}${ENTITY_KINDS[kind].path}`));
    for (const e of data.dataset.business[ENTITY_KINDS[kind].field]) {
      assert.ok(all.includes(`${BASE}${ENTITY_KINDS[kind].path}${e.id}/`), `${kind} ${e.id}`);
    }
  }
});

test("sitemap: past the limit, an index of parts that together hold every URL once", () => {
  const max = 100;
  const files = renderSitemaps(data, max);
  const index = files.get(PAGE_PATHS.sitemap) ?? "";
  assert.match(index, /<sitemapindex /);
  const parts = locs(index);
  assert.equal(parts.length, Math.ceil(sitemapUrls(data).length / max));
  const urls: string[] = [];
  for (const part of parts) {
    const xml = files.get(part.slice(BASE.length)) ?? "";
    assert.match(xml, /<urlset /);
    assert.ok(locs(xml).length <= max);
    urls.push(...locs(xml));
  }
  assert.deepEqual(
    urls,
    sitemapUrls(data).map((u) => BASE + u.path),
  );
});

test("robots.txt points to the sitemap and keeps crawlers out of endless search pages and filtered lists", () => {
  const robots = renderRobots(BASE);
  assert.match(robots, new RegExp(`^Sitemap: ${BASE}/sitemap.xml$`, "m"));
  assert.match(robots, /^User-agent: \*$/m);
  // RFC 9309: the longest matching rule decides, and rules match by prefix.
  const rules = [...robots.matchAll(/^(Allow|Disallow): (\S+)$/gm)].map((m) => ({
    allow: m[1] === "Allow",
    path: m[2],
  }));
  const allowed = (path: string) => {
    const match = rules.filter((r) => path.startsWith(r.path)).sort((a, b) => b.path.length - a.path.length)[0];
    return match === undefined || match.allow;
  };
  for (const path of [
    "/search",
    "/search?q=furnace",
    "/reviews/?aspect=cleanliness&aspect_polarity=negative",
    "/reviews/?sort=lowest",
  ])
    assert.equal(allowed(path), false, `${path} is disallowed`);
  for (const path of [
    "/",
    "/reviews/",
    "/reviews/page/2/",
    "/reviews/2026-03-04-fatima-h/",
    "/technicians/",
    "/sitemap.xml",
  ])
    assert.equal(allowed(path), true, `${path} is allowed`);
});

test("llms.txt names the datasets, feeds, OpenAPI, the MCP endpoint and the hub", () => {
  const txt = renderLlmsTxt(data.dataset, BASE);
  assert.match(txt, /^# /);
  for (const url of [
    `${BASE}/reviews.json`,
    `${BASE}/insights.json`,
    `${BASE}/api/feed.json`,
    `${BASE}/feed.xml`,
    `${BASE}/.well-known/openapi.json`,
    `${BASE}/mcp`,
    `${BASE}/api/websub/hub`,
    `${BASE}/sitemap.xml`,
  ]) {
    assert.ok(txt.includes(url), url);
  }
  assert.ok(txt.includes(String(data.dataset.aggregate_rating.review_count)));
});

test("entity pages count exactly the reviews that mention the entity; unknown ids have none", () => {
  for (const kind of Object.keys(ENTITY_KINDS) as EntityKind[]) {
    const field = ENTITY_KINDS[kind].field;
    for (const e of entityIndex(data, kind)) {
      const expected = reviews.filter((r) => r.mentions[field].includes(e.id));
      assert.deepEqual(
        reviewsMentioning(data, kind, e.id).map((r) => r.id),
        expected.map((r) => r.id),
      );
      const page = entityPage(data, kind, e.id);
      assert.ok(page);
      assert.equal(page.reviewCount, expected.length);
      assert.ok(page.quarters.reduce((s, q) => s + q.reviews, 0) <= expected.length);
      assert.deepEqual(
        page.newest.map((r) => r.id),
        expected.slice(0, page.newest.length).map((r) => r.id),
      );
      for (const q of page.quotes) {
        const r = data.index.byId.get(q.reviewId);
        assert.ok(r && (r.text.includes(q.quote) || (r.title ?? "").includes(q.quote)), q.quote);
      }
    }
    assert.equal(entityPage(data, kind, "no-such-entity"), undefined);
  }
});

test("review JSON-LD: a Review of the business with its rating and permalink; description within 160 chars", () => {
  const r = reviews.find((x) => x.response) ?? reviews[0];
  const ld = reviewJsonLd(r, data.dataset.business, BASE);
  assert.equal(ld["@type"], "Review");
  assert.equal(ld.url, `${BASE}${reviewPath(r.id)}`);
  assert.equal(ld.itemReviewed.name, data.dataset.business.name);
  assert.equal(ld.itemReviewed["@id"], `${BASE}/#business`);
  assert.deepEqual(ld.reviewRating, { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 });
  assert.ok(reviewDescription({ ...r, text: "x".repeat(500) }, data.dataset.business).length <= 160);
});

test("published updated is the latest of the review's own and its owner response's", () => {
  const base = { date: "2025-01-10", updated: "2025-01-11T08:00:00Z" };
  assert.equal(latestUpdate(base), "2025-01-11T08:00:00Z");
  assert.equal(latestUpdate({ ...base, response: { text: "Thanks", date: "2025-02-01" } }), "2025-02-01T00:00:00Z");
  assert.equal(latestUpdate({ ...base, response: { text: "Thanks", date: "2025-01-10" } }), "2025-01-11T08:00:00Z");
  assert.equal(
    latestUpdate({ date: "2025-01-10", response: { text: "Thanks", date: "2025-01-12" } }),
    "2025-01-12T00:00:00Z",
  );
});

test("feeds: items link to the permalink; Atom has one alternate, the JSON Feed as related, xml:lang per entry", () => {
  const mixed = reviews.map((r, i) => (i === 1 ? { ...r, language: "es" } : r));
  const dataset = { ...data.dataset, reviews: mixed };
  const json = renderJsonFeed(dataset, BASE);
  for (const [i, item] of json.items.entries()) assert.equal(item.url, `${BASE}${reviewPath(mixed[i].id)}`);
  const atom = renderAtomFeed(dataset, BASE);
  const feedHead = atom.slice(0, atom.indexOf("<entry"));
  assert.equal(feedHead.match(/rel="alternate"/g)?.length, 1);
  assert.match(feedHead, /<link rel="alternate" type="text\/html" href="https:\/\/reviews.example\/"\/>/);
  assert.match(
    feedHead,
    /<link rel="related" type="application\/json" href="https:\/\/reviews.example\/api\/feed.json"\/>/,
  );
  const entries = atom.split("<entry").slice(1);
  assert.match(entries[1], /^ xml:lang="es">/);
  assert.match(entries[0], /^>/);
  assert.ok(entries[2].includes(`<link rel="alternate" type="text/html" href="${BASE}${reviewPath(reviews[2].id)}"/>`));
});
