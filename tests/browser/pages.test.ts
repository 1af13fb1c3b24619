// The pages for people and crawlers, in Chromium with JavaScript on and off, against the real sidecar: feed links,
// search without JavaScript, the 400 page, accessibility and layout of every page type, size, sitemap, leaks, 304.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { readContent } from "../../src/build/read-content.ts";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { type BrowserFixture, startBrowserFixture } from "../helpers/browser.ts";
import { ROOT } from "../helpers/paths.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

const REVIEW_PAGE_MAX_COMPRESSED = 30 * 1024;
let browser: Browser;
let dataset: ReviewsDataset;
let origin: string;
let withJs: BrowserContext;
let withoutJs: BrowserContext;

const squash = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();
const api = async (query: string) => (await fetch(`${origin}/api/reviews/search?${query}`)).json();
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

let fixture: BrowserFixture | undefined;

before(async () => {
  fixture = await startBrowserFixture();
  ({ origin, dataset, browser } = fixture);
  withJs = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  withoutJs = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
});

after(() => fixture?.close());

/** Opens `url` in `page` and checks that it shows review `id` with its text. */
async function assertShowsReview(page: Page, url: string, id: string) {
  const response = await page.goto(url, { waitUntil: "domcontentloaded" });
  assert.equal(response?.status(), 200, url);
  const review = dataset.reviews.find((r) => r.id === id);
  assert.ok(review, id);
  const article = page.locator(`article[data-id="${id}"]`);
  assert.equal(await article.count(), 1, `${url} shows ${id}`);
  assert.equal(squash(await article.locator(".text").textContent()), squash(review.text || "Rating only, no text."));
}

test("every JSON Feed item link (JavaScript on) and Atom entry link (off) answers 200 with that review's text", async () => {
  const feed = await (await fetch(`${origin}/api/feed.json`)).json();
  assert.equal(feed.items.length, Math.min(50, dataset.reviews.length));
  const scripted = await withJs.newPage();
  for (const [i, item] of feed.items.entries()) await assertShowsReview(scripted, item.url, dataset.reviews[i].id);
  const atom = await (await fetch(`${origin}/feed.xml`)).text();
  const links = [...atom.matchAll(/<entry[^>]*>[\s\S]*?<link rel="alternate" type="text\/html" href="([^"]+)"/g)].map(
    (m) => m[1],
  );
  assert.equal(links.length, feed.items.length);
  const plain = await withoutJs.newPage();
  for (const [i, link] of links.entries()) await assertShowsReview(plain, link, dataset.reviews[i].id);
  await scripted.close();
  await plain.close();
});

describe("search without JavaScript", () => {
  const technician = () => dataset.business.technicians[0].id;

  test("the home page's form submits to /search, which shows exactly what the API returns and pages with the cursor", async () => {
    const page = await withoutJs.newPage();
    await page.goto(`${origin}/`);
    await page.selectOption("#f-mentions_technician", technician());
    await page.fill("#f-limit", "4");
    await page.click("#search-form button[type=submit]");
    await page.waitForURL(/\/search\?/);
    const expected = await api(`mentions_technician=${technician()}&limit=4`);
    const ids = () =>
      page.locator("#search-results article").evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id));
    assert.deepEqual(
      await ids(),
      expected.reviews.map((r: { id: string }) => r.id),
    );
    assert.match(squash(await page.locator("#search-status").textContent()), new RegExp(`^${expected.total} matching`));
    assert.equal(await page.locator("#f-mentions_technician").inputValue(), technician(), "the form keeps the filter");
    assert.ok(expected.next_cursor, "the sample has a second page");
    await page.click("#search-next");
    await page.waitForURL(/cursor=/);
    const next = await api(`mentions_technician=${technician()}&limit=4&cursor=${expected.next_cursor}`);
    assert.deepEqual(
      await ids(),
      next.reviews.map((r: { id: string }) => r.id),
    );
    await page.close();
  });

  test("invalid parameters answer 400 and the page shows each problem next to its field", async () => {
    const query = "min_rating=9&since=2025-06-01&until=2025-01-01&colour=blue";
    const expected = await api(query);
    const page = await withoutJs.newPage();
    const response = await page.goto(`${origin}/search?${query}`);
    assert.equal(response?.status(), 400);
    const message = (name: string) =>
      expected.issues
        .filter((i: { path: string[] }) => i.path[0] === name)
        .map((i: { message: string }) => i.message)
        .join(" ");
    assert.equal(await page.locator("#err-min_rating").textContent(), message("min_rating"));
    assert.equal(await page.locator("#err-since").textContent(), message("since"));
    assert.equal(await page.locator("#f-min_rating").getAttribute("aria-invalid"), "true");
    assert.equal(await page.locator("#f-min_rating").inputValue(), "9", "the form keeps what was typed");
    assert.match((await page.locator("#err-form").textContent()) ?? "", /colour/);
    await page.close();
  });

  test("with JavaScript, /search's own results are enhanced in place: More appends the API's next page", async () => {
    const page = await withJs.newPage();
    await page.goto(`${origin}/search?rating=5&limit=3`);
    const first = await api("rating=5&limit=3");
    await page.click("#search-more");
    await page.waitForFunction(() => document.querySelectorAll("#search-results article").length > 3);
    const second = await api(`rating=5&limit=3&cursor=${first.next_cursor}`);
    assert.deepEqual(
      await page.locator("#search-results article").evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id)),
      [...first.reviews, ...second.reviews].map((r: { id: string }) => r.id),
    );
    await page.close();
  });
});

const pageTypes = () => {
  const t = dataset.business.technicians[0].id;
  return {
    review: `/reviews/${dataset.reviews[0].id}/`,
    "review with response": `/reviews/${dataset.reviews.find((r) => r.response)?.id}/`,
    "all reviews": "/reviews/",
    "all reviews, page 2": "/reviews/page/2/",
    "reviews by topic": "/reviews/?aspect=communication&aspect_polarity=negative&sort=lowest",
    "reviews by topic 400": "/reviews/?sort=best",
    technician: `/technicians/${t}/`,
    service: `/services/${dataset.business.services[0].id}/`,
    area: `/areas/${dataset.business.service_areas[0].id}/`,
    technicians: "/technicians/",
    services: "/services/",
    areas: "/areas/",
    search: "/search?query=furnace&limit=5",
    "search 400": "/search?rating=9",
    "not found": "/no-such-page",
  };
};

for (const width of [320, 375, 1280]) {
  test(`axe-core finds no violation and nothing scrolls sideways on every page type at ${width} px`, async () => {
    const axe = await readFile(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    for (const [name, path] of Object.entries(pageTypes())) {
      const page = await context.newPage();
      await page.goto(`${origin}${path}`);
      await page.addScriptTag({ content: axe });
      const violations = await page.evaluate(async () => {
        const r = await (
          window as unknown as { axe: { run: () => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }
        ).axe.run();
        return r.violations.map((v) => `${v.id} (${v.nodes.length})`);
      });
      assert.deepEqual(violations, [], `${name} (${path})`);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `${name}: ${overflow} px too wide`);
      await page.close();
    }
    await context.close();
  });
}

test("a review page: canonical, Open Graph, Twitter card and a schema.org Review of the business", async () => {
  const r = dataset.reviews.find((x) => x.response && x.mentions.technicians.length > 0) ?? dataset.reviews[0];
  const page = await withoutJs.newPage();
  await page.goto(`${origin}/reviews/${r.id}/`);
  const url = `${origin}/reviews/${r.id}/`;
  assert.equal(await page.locator("link[rel=canonical]").getAttribute("href"), url);
  assert.equal(await page.locator('meta[property="og:url"]').getAttribute("content"), url);
  assert.equal(await page.locator('meta[property="og:type"]').getAttribute("content"), "article");
  assert.equal(await page.locator('meta[name="twitter:card"]').getAttribute("content"), "summary");
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "");
  assert.equal(ld["@type"], "Review");
  assert.equal(ld.url, url);
  assert.equal(ld.itemReviewed.name, dataset.business.name);
  assert.equal(ld.reviewRating.ratingValue, r.rating);
  if (r.response) assert.match(squash(await page.locator(".response").textContent()), /Response from/);
  for (const id of r.mentions.technicians) {
    assert.equal(await page.locator(`.chips a[href="/technicians/${id}/"]`).count(), 1, `links technician ${id}`);
  }
  await page.close();
});

test("review pages weigh at most 30 KB compressed (br and gzip), every one of them", async () => {
  let largest = 0;
  for (const r of dataset.reviews) {
    for (const encoding of ["br", "gzip"]) {
      const res = await fetch(`${origin}/reviews/${r.id}/`, { headers: { "Accept-Encoding": encoding } });
      assert.equal(res.headers.get("content-encoding"), encoding);
      largest = Math.max(largest, Number(res.headers.get("content-length")));
      await res.arrayBuffer();
    }
  }
  console.log(`largest review page: ${largest} bytes compressed`);
  assert.ok(largest > 0 && largest <= REVIEW_PAGE_MAX_COMPRESSED, `${largest} bytes`);
});

test("the sitemap lists every published review exactly once, and every listed page answers 200 with nothing private or unverified", async () => {
  const raw = await readContent(SAMPLE_CONTENT);
  const secrets: string[] = [];
  const unverified: { id: string; text: string }[] = [];
  for (const f of raw.reviews) {
    const r = JSON.parse(f.text);
    if (r.private) secrets.push(...Object.values(r.private as Record<string, string>));
    if (!r.verified) unverified.push({ id: f.path.replace(/^.*\//, "").replace(/\.json$/, ""), text: r.text });
  }
  assert.ok(secrets.length > 0 && unverified.length > 0, "the sample has private data and unverified reviews");
  // The sample's sentences recur across reviews; only a text that no verified review contains betrays its review.
  const telltale = unverified.filter(
    (u) => u.text.length > 20 && !dataset.reviews.some((r) => r.text.includes(u.text)),
  );
  assert.ok(telltale.length > 0, "some unverified text is its own");
  const urls = locs(await (await fetch(`${origin}/sitemap.xml`)).text());
  const reviewUrls = urls.filter((u) => /\/reviews\/[^/]+\/$/.test(u) && !u.includes("/page/"));
  assert.deepEqual(
    [...reviewUrls].sort(),
    dataset.reviews.map((r) => `${origin}/reviews/${encodeURIComponent(r.id)}/`).sort(),
  );
  const extra = ["/search?limit=100", "/search?query=a&limit=100", "/no-such-page"];
  for (const url of [...urls, ...extra.map((p) => origin + p)]) {
    const res = await fetch(url, { headers: { Accept: "text/html" } });
    const html = await res.text();
    if (!url.endsWith("/no-such-page")) assert.equal(res.status, 200, url);
    for (const s of secrets) assert.ok(!html.includes(s), `${url} leaks ${s}`);
    for (const u of unverified) assert.ok(!html.includes(u.id), `${url} names unverified ${u.id}`);
    for (const u of telltale) assert.ok(!html.includes(u.text), `${url} shows the text of unverified ${u.id}`);
  }
  for (const u of unverified) {
    const res = await fetch(`${origin}/reviews/${u.id}/`, { headers: { Accept: "text/html" } });
    assert.equal(res.status, 404, `unverified ${u.id} has no page`);
  }
});

test("pages rendered on demand: strong ETag per encoding, 304 for a matching If-None-Match, HEAD without a body", async () => {
  const url = `${origin}/technicians/${dataset.business.technicians[0].id}/`;
  const first = await fetch(url, { headers: { "Accept-Encoding": "identity" } });
  const etag = first.headers.get("etag");
  assert.match(etag ?? "", /^"[0-9a-f]{32}"$/);
  assert.equal(first.headers.get("content-type"), "text/html; charset=utf-8");
  assert.equal(first.headers.get("vary"), "Accept-Encoding");
  await first.arrayBuffer();
  const again = await fetch(url, { headers: { "Accept-Encoding": "identity", "If-None-Match": etag ?? "" } });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), "");
  const br = await fetch(url, { headers: { "Accept-Encoding": "br", "If-None-Match": etag ?? "" } });
  assert.equal(br.status, 200, "another encoding's tag does not match");
  assert.match(br.headers.get("etag") ?? "", /-br"$/);
  await br.arrayBuffer();
  const head = await fetch(url, { method: "HEAD", headers: { "Accept-Encoding": "identity" } });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("etag"), etag);
  assert.equal(await head.text(), "");
});

test("unknown paths: the HTML 404 page for browsers, the JSON 404 for everyone else", async () => {
  const html = await fetch(`${origin}/no-such-page`, { headers: { Accept: "text/html,application/xhtml+xml" } });
  assert.equal(html.status, 404);
  assert.match(html.headers.get("content-type") ?? "", /^text\/html/);
  assert.match(await html.text(), /<h1>Not found<\/h1>/);
  const json = await fetch(`${origin}/no-such-page`, { headers: { Accept: "application/json" } });
  assert.equal(json.status, 404);
  assert.equal((await json.json()).error, "not_found");
  const apiPath = await fetch(`${origin}/api/no-such-thing`, { headers: { Accept: "text/html" } });
  assert.equal(apiPath.status, 404);
  assert.match(apiPath.headers.get("content-type") ?? "", /^application\/json/);
  const unknownReview = await fetch(`${origin}/reviews/no-such-review/`);
  assert.equal(unknownReview.status, 404);
  assert.match(await unknownReview.text(), /no such review/);
});
