// The human page in Debian's Chromium (playwright-core): content, search, errors, accessibility, layout.
import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { type BrowserFixture, startBrowserFixture } from "../helpers/browser.ts";
import { ROOT } from "../helpers/paths.ts";

const ARTIFACTS = join(ROOT, "test-results");
let browser: Browser;
let dataset: ReviewsDataset;
let origin: string;

interface Watched {
  page: Page;
  problems: string[];
  bytes: () => number;
}

async function open(width = 1280, colorScheme: "light" | "dark" = "light"): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
  const page = await context.newPage();
  const problems: string[] = [];
  let bytes = 0;
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`failed: ${r.url()}`));
  page.on("request", (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith("data:")) problems.push(`left the origin: ${r.url()}`);
  });
  page.on("response", async (r) => {
    const len = Number((await r.allHeaders())["content-length"] ?? 0);
    bytes += len;
  });
  await page.goto(`${origin}/`, { waitUntil: "networkidle" });
  return { page, problems, bytes: () => bytes };
}

let fixture: BrowserFixture | undefined;

before(async () => {
  fixture = await startBrowserFixture();
  ({ origin, dataset, browser } = fixture);
  await mkdir(ARTIFACTS, { recursive: true });
});

after(() => fixture?.close());

test("loads with no console error, no failed request, nothing from another origin, under 200 KB", async () => {
  const { page, problems, bytes } = await open();
  assert.deepEqual(problems, []);
  console.log(`page weight: ${bytes()} bytes transferred`);
  assert.ok(bytes() < 200_000, `${bytes()} bytes`);
  assert.equal(
    (await page.locator("script:not([type])").count()) + (await page.locator('script[type="module"]').count()),
    1,
    "one script: the search island",
  );
  await page.screenshot({ path: join(ARTIFACTS, "page-1280.png"), fullPage: true });
  await page.context().close();
});

test("the rating, counts and newest reviews match /reviews.json", async () => {
  const { page } = await open();
  assert.equal(await page.getByTestId("rating-value").textContent(), String(dataset.aggregate_rating.rating_value));
  assert.equal(await page.getByTestId("review-count").textContent(), String(dataset.aggregate_rating.review_count));
  for (const star of [1, 2, 3, 4, 5] as const) {
    assert.equal(
      await page.getByTestId(`count-${star}`).textContent(),
      String(dataset.aggregate_rating.distribution[star]),
    );
  }
  const ids = await page
    .locator("[data-testid=newest] article")
    .evaluateAll((els) => els.map((e) => e.id.replace(/^review-/, "")));
  assert.deepEqual(
    ids,
    dataset.reviews.slice(0, 20).map((r) => r.id),
  );
  await page.context().close();
});

test("a search through the form, from the keyboard, shows the same reviews as the API, and pages on", async () => {
  const { page, problems } = await open();
  await page.selectOption("#f-rating", "5");
  await page.selectOption("#f-mentions_technician", dataset.business.technicians[0].id);
  await page.fill("#f-limit", "5");
  await page.focus("#f-query");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("#search-results article").length > 0);
  const api = await (
    await fetch(
      `${origin}/api/reviews/search?rating=5&mentions_technician=${dataset.business.technicians[0].id}&limit=5`,
    )
  ).json();
  const shown = await page
    .locator("#search-results article")
    .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id));
  assert.deepEqual(
    shown,
    api.reviews.map((r: { id: string }) => r.id),
  );
  assert.match((await page.locator("#search-status").textContent()) ?? "", new RegExp(`^${api.total} matching`));
  if (api.next_cursor) {
    await page.click("#search-more");
    await page.waitForFunction((n) => document.querySelectorAll("#search-results article").length > n, shown.length);
    const next = await (
      await fetch(
        `${origin}/api/reviews/search?rating=5&mentions_technician=${dataset.business.technicians[0].id}&limit=5&cursor=${api.next_cursor}`,
      )
    ).json();
    const all = await page
      .locator("#search-results article")
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id));
    assert.deepEqual(
      all.slice(shown.length),
      next.reviews.map((r: { id: string }) => r.id),
    );
  }
  assert.deepEqual(problems, []);
  await page.context().close();
});

test("a bad filter shows the API's message next to the field", async () => {
  const { page } = await open();
  await page.fill("#f-min_rating", "9");
  await page.fill("#f-since", "2025-06-01");
  await page.fill("#f-until", "2025-01-01");
  await page.click("#search-form button[type=submit]");
  await page.waitForFunction(() => (document.getElementById("err-min_rating")?.textContent ?? "") !== "");
  const api = await (await fetch(`${origin}/api/reviews/search?min_rating=9&since=2025-06-01&until=2025-01-01`)).json();
  const message = (name: string) => api.issues.find((i: { path: string[] }) => i.path[0] === name).message;
  assert.equal(await page.locator("#err-min_rating").textContent(), message("min_rating"));
  assert.equal(await page.locator("#err-since").textContent(), message("since"));
  assert.equal(await page.locator("#f-min_rating").getAttribute("aria-invalid"), "true");
  await page.screenshot({ path: join(ARTIFACTS, "page-search-error.png") });
  await page.context().close();
});

test("head: feed discovery links resolve, hub link, canonical, valid JSON-LD without generated text as a review", async () => {
  const { page } = await open();
  const links = await page
    .locator("link[rel=alternate], link[rel=hub], link[rel=canonical]")
    .evaluateAll((els) =>
      els.map((e) => ({ rel: e.getAttribute("rel"), type: e.getAttribute("type"), href: e.getAttribute("href") })),
    );
  const atom = links.find((l) => l.type === "application/atom+xml");
  const json = links.find((l) => l.type === "application/feed+json");
  assert.ok(atom && json && links.some((l) => l.rel === "hub" && l.href === `${origin}/api/websub/hub`));
  assert.equal(links.find((l) => l.rel === "canonical")?.href, `${origin}/`);
  for (const l of [atom, json]) assert.equal((await fetch(l.href as string)).status, 200);
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "");
  assert.equal(ld["@context"], "https://schema.org");
  assert.equal(ld["@type"], dataset.business.schema_type);
  assert.equal(ld.aggregateRating.ratingValue, dataset.aggregate_rating.rating_value);
  assert.equal(ld.aggregateRating.reviewCount, dataset.aggregate_rating.review_count);
  assert.equal(ld.review.length, 20);
  assert.equal(ld.areaServed.length, dataset.business.service_areas.length);
  const texts = new Set(dataset.reviews.map((r) => r.text));
  for (const r of ld.review) assert.ok(!r.reviewBody || texts.has(r.reviewBody), "every Review is a customer's review");
  await page.context().close();
});

for (const scheme of ["light", "dark"] as const) {
  test(`axe-core finds no serious or critical violation (${scheme})`, async () => {
    const { page } = await open(1280, scheme);
    await page.addScriptTag({ content: await readFile(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8") });
    const result = await page.evaluate(async () => {
      const r = await (
        window as unknown as {
          axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
        }
      ).axe.run();
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
    });
    console.log(`axe (${scheme}): ${JSON.stringify(result)}`);
    assert.deepEqual(
      result.filter((v) => v.impact === "serious" || v.impact === "critical"),
      [],
    );
    await page.screenshot({ path: join(ARTIFACTS, `page-${scheme}.png`) });
    await page.context().close();
  });
}

for (const width of [320, 375, 1280]) {
  test(`no horizontal scroll at ${width} px`, async () => {
    const { page } = await open(width);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `${overflow} px too wide`);
    if (width === 375) await page.screenshot({ path: join(ARTIFACTS, "page-375.png"), fullPage: true });
    await page.context().close();
  });
}
