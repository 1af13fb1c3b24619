// /reviews/ with the search's filters and sorts, in Chromium with JavaScript on and off, against an oracle over the
// published reviews.json; every aspect link of the home, technician, service and area pages lands on reviews that carry
// that aspect with that polarity, the quote marked; the aspect bars stay readable at phone widths.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import type { ReviewRecord, ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { type BrowserFixture, startBrowserFixture } from "../helpers/browser.ts";

let fixture: BrowserFixture | undefined;
let origin: string;
let dataset: ReviewsDataset;
let withJs: BrowserContext;
let withoutJs: BrowserContext;

before(async () => {
  fixture = await startBrowserFixture();
  ({ origin, dataset } = fixture);
  withJs = await fixture.browser.newContext({ viewport: { width: 1280, height: 900 } });
  withoutJs = await fixture.browser.newContext({ viewport: { width: 375, height: 800 }, javaScriptEnabled: false });
});

after(() => fixture?.close());

// Written from the documented contract, not from the search's code.
const newest = (a: ReviewRecord, b: ReviewRecord) =>
  a.date !== b.date
    ? a.date < b.date
      ? 1
      : -1
    : a.updated !== b.updated
      ? a.updated < b.updated
        ? 1
        : -1
      : a.id < b.id
        ? -1
        : 1;
const ORDERS: Record<string, (a: ReviewRecord, b: ReviewRecord) => number> = {
  newest,
  oldest: (a, b) =>
    a.date !== b.date
      ? a.date < b.date
        ? -1
        : 1
      : a.updated !== b.updated
        ? a.updated < b.updated
          ? -1
          : 1
        : a.id < b.id
          ? -1
          : 1,
  highest: (a, b) => b.rating - a.rating || newest(a, b),
  lowest: (a, b) => a.rating - b.rating || newest(a, b),
};

function oracle(p: Record<string, string>): string[] {
  return dataset.reviews
    .filter(
      (r) =>
        (p.rating === undefined || r.rating === Number(p.rating)) &&
        (p.mentions_technician === undefined || r.mentions.technicians.includes(p.mentions_technician)) &&
        (p.mentions_service === undefined || r.mentions.services.includes(p.mentions_service)) &&
        (p.mentions_area === undefined || r.mentions.service_areas.includes(p.mentions_area)) &&
        ((p.aspect === undefined && p.aspect_polarity === undefined) ||
          r.aspects.some(
            (a) =>
              (p.aspect === undefined || a.aspect === p.aspect) &&
              (p.aspect_polarity === undefined || a.polarity === p.aspect_polarity),
          )),
    )
    .sort(ORDERS[p.sort ?? "newest"])
    .map((r) => r.id);
}

/** The service area most reviews mention, so that its page has aspect bars to follow. */
function busiestArea(): string {
  const counts = new Map<string, number>();
  for (const r of dataset.reviews) for (const a of r.mentions.service_areas) counts.set(a, (counts.get(a) ?? 0) + 1);
  const [best] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  assert.ok(best, "the sample's reviews mention a service area");
  return best[0];
}

const ids = (page: Page) =>
  page
    .locator("[data-testid=review-list] article")
    .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id ?? ""));

/** Every review of a filtered /reviews/, following its "More reviews" links to the end. */
async function allPages(page: Page, params: Record<string, string>): Promise<string[]> {
  const response = await page.goto(`${origin}/reviews/?${new URLSearchParams(params)}`);
  assert.equal(response?.status(), 200, JSON.stringify(params));
  const seen = await ids(page);
  for (let i = 0; i < 50 && (await page.locator("[data-testid=next-page]").count()) > 0; i++) {
    // Wait for the link's own URL: every page after the first already has a cursor in its URL, so a pattern would
    // match the page being left and the next one could be read before it loaded (or skipped).
    const next = new URL((await page.getAttribute("[data-testid=next-page]", "href")) ?? "", page.url()).href;
    await Promise.all([page.waitForURL(next), page.click("[data-testid=next-page]")]);
    seen.push(...(await ids(page)));
  }
  return seen;
}

describe("filters and sorts of /reviews/", () => {
  const cases = (): Record<string, string>[] => {
    const tech = dataset.business.technicians[0].id;
    const service = dataset.business.services[0].id;
    const area = busiestArea();
    return [
      { sort: "newest", limit: "40" },
      { sort: "oldest", limit: "40" },
      { sort: "highest", limit: "25" },
      { sort: "lowest", rating: "2", limit: "3" },
      { aspect: "cleanliness", aspect_polarity: "negative", limit: "4" },
      { aspect: "communication", sort: "oldest", limit: "5" },
      { aspect_polarity: "positive", mentions_technician: tech, sort: "lowest", limit: "6" },
      { mentions_service: service, aspect: "price_value", sort: "highest" },
      { mentions_area: area, aspect_polarity: "negative", sort: "oldest", limit: "7" },
    ];
  };

  for (const [name, context] of [
    ["JavaScript on", () => withJs],
    ["JavaScript off", () => withoutJs],
  ] as const) {
    test(`every filter and sort lists exactly the oracle's reviews in its order, page by page (${name})`, async () => {
      const page = await context().newPage();
      for (const params of cases()) {
        const { limit: _limit, ...filters } = params;
        const expected = oracle(filters);
        assert.ok(expected.length > 0, `the sample has reviews for ${JSON.stringify(filters)}`);
        assert.deepEqual(await allPages(page, params), expected, JSON.stringify(params));
      }
      await page.close();
    });
  }

  test("the form and the star and order links work without JavaScript and keep the other filters", async () => {
    const page = await withoutJs.newPage();
    await page.goto(`${origin}/reviews/`);
    await page.selectOption("#r-aspect", "punctuality");
    await page.selectOption("#r-aspect_polarity", "negative");
    await page.selectOption("#r-sort", "highest");
    await Promise.all([page.waitForURL(/aspect=punctuality/), page.click("#filters-form button[type=submit]")]);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get("aspect_polarity"), "negative");
    const expected = oracle({ aspect: "punctuality", aspect_polarity: "negative", sort: "highest" });
    assert.deepEqual(await ids(page), expected.slice(0, 20));
    assert.equal(await page.locator("#filter-status").getAttribute("data-total"), String(expected.length));
    await Promise.all([page.waitForURL(/sort=oldest/), page.click("nav[aria-label=Order] a:text('Oldest first')")]);
    assert.deepEqual(
      await ids(page),
      oracle({ aspect: "punctuality", aspect_polarity: "negative", sort: "oldest" }).slice(0, 20),
    );
    await Promise.all([page.waitForURL(/rating=1/), page.click("nav[aria-label=Stars] a:text('1 star')")]);
    assert.deepEqual(
      await ids(page),
      oracle({ aspect: "punctuality", aspect_polarity: "negative", sort: "oldest", rating: "1" }).slice(0, 20),
    );
    await page.close();
  });

  test("an unknown value answers 400 naming the parameter, with the filters still there", async () => {
    const page = await withoutJs.newPage();
    for (const [query, field] of [
      ["sort=best", "sort"],
      ["aspect=smell", "aspect"],
      ["aspect_polarity=mixed", "aspect_polarity"],
    ]) {
      const response = await page.goto(`${origin}/reviews/?${query}`);
      assert.equal(response?.status(), 400, query);
      assert.match(await page.locator("[data-testid=filter-issues]").innerText(), new RegExp(`${field}:`));
      assert.equal(await page.locator("#filters-form").count(), 1);
    }
    await page.close();
  });
});

test("every aspect link on the home, technician, service and area pages lands on reviews with that aspect and polarity, quote marked", async () => {
  const page = await withoutJs.newPage();
  const tech = dataset.business.technicians[0].id;
  const service = dataset.business.services[0].id;
  const area = busiestArea();
  const byId = new Map(dataset.reviews.map((r) => [r.id, r]));
  let followed = 0;
  const entityOf: Record<string, "technicians" | "services" | "service_areas"> = {
    technicians: "technicians",
    services: "services",
    areas: "service_areas",
  };
  const pathsFollowed = new Set<string>();
  for (const path of ["/", `/technicians/${tech}/`, `/services/${service}/`, `/areas/${area}/`]) {
    await page.goto(`${origin}${path}`);
    const links = await page
      .locator("[data-testid=aspect-bars] a[data-polarity]")
      .evaluateAll((els) => els.map((e) => (e as HTMLAnchorElement).href));
    assert.ok(links.length > 0, `${path} links its aspect bars`);
    for (const link of links) {
      const url = new URL(link);
      const aspect = url.searchParams.get("aspect") as string;
      const polarity = url.searchParams.get("aspect_polarity") as string;
      await page.goto(link);
      const shown = await ids(page);
      assert.ok(shown.length > 0, link);
      for (const id of shown) {
        const r = byId.get(id as string) as ReviewRecord;
        const matching = r.aspects.filter((a) => a.aspect === aspect && a.polarity === polarity);
        assert.ok(matching.length > 0, `${id} has ${aspect} ${polarity} (${link})`);
        if (path !== "/") {
          const [, kind, entity] = path.split("/");
          assert.ok(r.mentions[entityOf[kind]].includes(entity), `${id} mentions the page's entity`);
        }
        const marks = await page.locator(`article[data-id="${id}"] .text mark`).allInnerTexts();
        const inText = matching.filter((a) => r.text.includes(a.quote)).map((a) => a.quote);
        for (const quote of inText) assert.ok(marks.includes(quote), `${id}: "${quote}" is marked`);
      }
      followed++;
      pathsFollowed.add(path);
    }
  }
  assert.ok(followed >= 6);
  assert.equal(pathsFollowed.size, 4, "every page type's bars were followed");
  await page.close();
});

test("a review's aspect chips link to the reviews with the same aspect and polarity", async () => {
  const r = dataset.reviews.find((x) => x.aspects.length > 0) as ReviewRecord;
  const page = await withoutJs.newPage();
  await page.goto(`${origin}/reviews/${r.id}/`);
  const hrefs = await page
    .locator(".chips.aspects a")
    .evaluateAll((els) => els.map((e) => (e as HTMLAnchorElement).getAttribute("href")));
  assert.deepEqual(
    hrefs,
    r.aspects.map((a) => `/reviews/?aspect=${a.aspect}&aspect_polarity=${a.polarity}`),
  );
  await page.close();
});

for (const width of [320, 375, 1280]) {
  test(`the aspect bars and the rating trend fit ${width} px, text of at least 12 px`, async () => {
    const context = await fixture?.browser.newContext({ viewport: { width, height: 800 } });
    assert.ok(context);
    const page = await context.newPage();
    for (const path of ["/", `/technicians/${dataset.business.technicians[0].id}/`]) {
      await page.goto(`${origin}${path}`);
      const report = await page.locator("[data-testid=aspect-bars]").evaluate((list) => {
        const texts = [...list.querySelectorAll("*")].filter((e) =>
          [...e.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? "").trim() !== ""),
        );
        return {
          minFont: Math.min(...texts.map((e) => Number.parseFloat(getComputedStyle(e).fontSize))),
          right: list.getBoundingClientRect().right,
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      });
      assert.ok(report.minFont >= 12, `${path}: ${report.minFont} px`);
      assert.ok(report.right <= width, `${path}: bars end at ${report.right} px`);
      assert.ok(report.overflow <= 0, `${path}: ${report.overflow} px sideways`);
      const trend = page.locator("[data-testid=rating-trend]");
      assert.equal(await trend.locator("tbody tr").count(), 24, `${path}: 24 months in the table`);
      const box = await trend.locator("svg").boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= width, `${path}: the trend fits`);
      assert.match((await trend.locator("svg title").textContent()) ?? "", /long-run average \d/);
    }
    await context.close();
  });
}

test("no page names the analysis engine or its version; owner responses show under their reviews", async () => {
  const insights = await (await fetch(`${origin}/insights.json`)).json();
  const { engine, version } = insights.method as { engine: string; version: string };
  assert.ok(engine && version);
  const answered = dataset.reviews.find((r) => r.response) as ReviewRecord;
  const page = await withoutJs.newPage();
  for (const path of [
    "/",
    `/reviews/${answered.id}/`,
    `/technicians/${dataset.business.technicians[0].id}/`,
    `/services/${dataset.business.services[0].id}/`,
    "/reviews/?aspect=speed",
  ]) {
    await page.goto(`${origin}${path}`);
    const text = await page.locator("body").innerText();
    assert.ok(!text.includes(engine), `${path} names ${engine}`);
    assert.ok(!text.includes(version), `${path} shows ${version}`);
  }
  await page.goto(`${origin}/reviews/${answered.id}/`);
  const response = page.locator(`article[data-id="${answered.id}"] .response`);
  assert.ok(await response.isVisible());
  assert.match(
    await response.innerText(),
    new RegExp(answered.response?.text.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, "\\$&") ?? ""),
  );
  await page.close();
});
