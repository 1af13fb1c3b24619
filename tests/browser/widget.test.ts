// <reviews-widget> on another site: a host page from another loopback origin with a strict Content-Security-Policy
// (no 'unsafe-inline', Trusted Types required) embeds the widget from the real sidecar in Chromium. Each variant
// shows what an oracle over reviews.json expects; no request leaves for a third origin, no CSP violation, no
// console error, axe finds nothing inside the shadow roots, nothing shifts while the data arrives; wrong attribute
// values warn once; an unreachable service leaves a link; a rebuild shows new data through the same script URL.
import assert from "node:assert/strict";
import { readdir, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { aggregateRating } from "../../src/domain/aggregate.ts";
import type { ReviewRecord, ReviewsDataset } from "../../src/domain/schemas/published.ts";
import {
  WIDGET_ENTITY_FIELDS,
  WIDGET_SCRIPT_PATH,
  type WidgetEntity,
  widgetDataPaths,
  widgetHeight,
} from "../../src/domain/widget/widget-paths.ts";
import { launchChromium, routeLocalhost, SITE_ORIGIN, serveSite } from "../helpers/browser.ts";
import { buildSample, contentFixture, runBuild } from "../helpers/build.ts";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { ROOT } from "../helpers/paths.ts";
import { until } from "../helpers/until.ts";

const FIELD = { technician: "technicians", service: "services", area: "service_areas" } as const;
type Attrs = Record<string, string>;

/** The sample built for the sidecar's origin and served; the folder is kept to rebuild into it. */
let fixture: { dist: string; sidecar: RunningSidecar; browser: Browser } | undefined;
let host: Server | undefined;
let hostOrigin: string;
let origin: string;
let dataset: ReviewsDataset;
let axeSource: string;
/**
 * How a host page keeps the room for the widgets before the script has run (docs/widget.md): a rule in its own
 * stylesheet with widgetHeight(), or `blocking="render"` on the script tag.
 */
type Reserve = "stylesheet" | "blocking";
interface HostPage {
  widgets: Attrs[];
  script: string;
  reserve: Reserve;
  /** HTML inside each tag. */
  inside?: string;
  /** More rules for the page's own stylesheet. */
  css?: string;
}
/** The page each path of the host server answers (`.css`: its stylesheet). */
const hostPages = new Map<string, HostPage>();

const csp = () =>
  [
    "default-src 'none'",
    `script-src ${origin}`,
    `connect-src ${origin}`,
    "style-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
  ].join("; ");

const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function hostCss({ widgets, css = "" }: HostPage): string {
  return `${css}\n${widgets
    .map((attrs, i) => {
      const variant = (["list", "aspects"] as const).find((v) => v === attrs.variant) ?? "badge";
      const count = Number(attrs.count);
      const height = widgetHeight(variant, Number.isInteger(count) && count >= 1 && count <= 20 ? count : 5);
      return `#w${i} { display: block; min-height: ${height}; }`;
    })
    .join("\n")}`;
}

function hostHtml({ widgets, script, reserve, inside = "" }: HostPage, path: string): string {
  const tags = widgets.map((attrs, i) => {
    const list = Object.entries(attrs)
      .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
      .join("");
    return `<reviews-widget id="w${i}"${list}>${inside}</reviews-widget>\n<p>Text after widget ${i}, which must not move.</p>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>A host site</title>${
    reserve === "stylesheet" ? `<link rel="stylesheet" href="${path.replace(/\.html$/, ".css")}">` : ""
  }<script type="module" src="${origin}${script}"${reserve === "blocking" ? ' blocking="render"' : ""}></script></head><body><main><h1>A plumber's own website</h1>${tags.join("\n")}</main></body></html>`;
}

before(async () => {
  origin = SITE_ORIGIN;
  const dist = await buildSample(origin);
  dataset = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")) as ReviewsDataset;
  const { sidecar, address } = await serveSite(dist);
  routeLocalhost(address);
  fixture = {
    dist,
    sidecar,
    browser: await launchChromium(address).catch(async (e) => {
      await sidecar.close();
      throw e;
    }),
  };
  axeSource = await readFile(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
  host = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    // The site has no icon; a 404 would be a console error that is not the widget's.
    if (path === "/favicon.ico") return res.writeHead(204).end();
    const page = hostPages.get(path.replace(/\.css$/, ".html"));
    if (!page) return res.writeHead(404).end();
    if (path.endsWith(".css")) return res.writeHead(200, { "Content-Type": "text/css" }).end(hostCss(page));
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": csp() });
    res.end(hostHtml(page, path));
  });
  host.listen(0, "127.0.0.1");
  await new Promise((resolve) => host?.once("listening", resolve));
  hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});

after(async () => {
  host?.closeAllConnections();
  await new Promise((resolve) => (host ? host.close(resolve) : resolve(undefined)));
  await fixture?.browser.close();
  await fixture?.sidecar.close();
});

/** What a page did besides rendering: every request, console warnings and errors, page errors, CSP violations. */
interface Recorded {
  requests: string[];
  warnings: string[];
  errors: string[];
}

async function record(context: BrowserContext): Promise<Recorded> {
  const recorded: Recorded = { requests: [], warnings: [], errors: [] };
  context.on("request", (r) => recorded.requests.push(r.url()));
  await context.addInitScript(() => {
    const w = window as unknown as { __violations: string[]; __cls: number };
    w.__violations = [];
    w.__cls = 0;
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  return recorded;
}

function watch(page: Page, recorded: Recorded): void {
  page.on("console", (m) => {
    if (m.type() === "warning") recorded.warnings.push(m.text());
    if (m.type() === "error") recorded.errors.push(m.text());
  });
  page.on("pageerror", (e) => recorded.errors.push(e.message));
}

/** Serves `widgets` on a new host path and opens it; the widgets' data answers once `holdData` (if given) resolves. */
async function openHost(
  context: BrowserContext,
  recorded: Recorded,
  widgets: Attrs[],
  options: { holdData?: Promise<void>; script?: string; abortData?: boolean; reserve?: Reserve } = {},
): Promise<Page> {
  const path = `/site-${hostPages.size}.html`;
  hostPages.set(path, { widgets, script: options.script ?? "/widget.js", reserve: options.reserve ?? "stylesheet" });
  const page = await context.newPage();
  watch(page, recorded);
  await page.route(`${origin}/widget-data/**`, async (route) => {
    if (options.abortData) return route.abort("connectionrefused");
    await options.holdData;
    await route.continue();
  });
  await page.goto(`${hostOrigin}${path}`);
  return page;
}

/** Each widget's height while its data is on its way. */
async function busyHeights(page: Page, count: number): Promise<number[]> {
  await page.waitForFunction((n) => {
    const all = [...document.querySelectorAll("reviews-widget")];
    return all.length === n && all.every((w) => w.shadowRoot?.querySelector(".frame[aria-busy]"));
  }, count);
  return heights(page);
}

const heights = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll("reviews-widget")].map((w) => w.getBoundingClientRect().height));

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("reviews-widget")].every((w) =>
      w.shadowRoot?.querySelector(".frame:not([aria-busy])"),
    ),
  );
}

function slice(attrs: Attrs): ReviewRecord[] {
  for (const kind of ["technician", "service", "area"] as const) {
    const id = attrs[kind];
    if (id && dataset.business[FIELD[kind]].some((e) => e.id === id)) {
      return dataset.reviews.filter((r) => r.mentions[FIELD[kind]].includes(id));
    }
  }
  return dataset.reviews;
}

/** The oracle: the ids a list with these attributes shows. */
function expectedIds(attrs: Attrs): string[] {
  const min = Math.ceil(Number(attrs["min-rating"] ?? 1));
  const matching = slice(attrs).filter((r) => r.rating >= min);
  if (attrs.sort === "best") matching.sort((a, b) => b.rating - a.rating);
  return matching.slice(0, Number(attrs.count ?? 5)).map((r) => r.id);
}

const shownIds = (page: Page, i: number) =>
  page
    .locator(`#w${i} article h3 a`)
    .evaluateAll((links) =>
      links.map((a) => decodeURIComponent(new URL((a as HTMLAnchorElement).href).pathname.split("/")[2])),
    );

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: () => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }
    ).axe;
    const r = await axe.run();
    return r.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}

const cls = (page: Page) => page.evaluate(() => (window as unknown as { __cls: number }).__cls);
const violations = (page: Page) => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);

function assertOnlyTwoOrigins(recorded: Recorded) {
  for (const url of recorded.requests) {
    assert.ok(url.startsWith(`${hostOrigin}/`) || url.startsWith(`${origin}/`), `a request left for ${url}`);
    assert.ok(!url.endsWith("/reviews.json"), "the widget never downloads the whole dataset");
  }
}

describe("variants on a host page with a strict CSP", () => {
  const business = () => dataset.business;
  const cases = (): Attrs[] => {
    const [t0, t1] = business().technicians;
    const [s0] = business().services;
    const a0 = business().service_areas.find((a) =>
      dataset.reviews.some((r) => r.mentions.service_areas.includes(a.id)),
    );
    return [
      {},
      { variant: "list", count: "3" },
      { variant: "list", count: "5", sort: "best", "min-rating": "4", technician: t0.id },
      { variant: "list", count: "4", service: s0.id, "min-rating": "2.5" },
      { variant: "list", count: "20", sort: "best", area: a0?.id ?? "" },
      { variant: "aspects", technician: t1.id },
      { variant: "badge", area: a0?.id ?? "", theme: "dark" },
      { variant: "list", count: "2", sort: "newest", "min-rating": "5", theme: "light" },
    ];
  };

  for (const [width, scheme, reserve] of [
    [320, "light", "stylesheet"],
    [1280, "dark", "blocking"],
    [320, "dark", "blocking"],
    [1280, "light", "stylesheet"],
  ] as const) {
    test(`${width} px, ${scheme}, room kept by ${reserve}: the oracle's reviews, two origins only, no CSP violation, no error, axe clean, CLS 0`, async () => {
      assert.ok(fixture);
      const context = await fixture.browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      const recorded = await record(context);
      const widgets = cases();
      // The data is held back until the widgets' heights while they wait for it have been measured.
      let release!: () => void;
      const holdData = new Promise<void>((r) => {
        release = r;
      });
      const page = await openHost(context, recorded, widgets, { holdData, reserve });
      const before = await busyHeights(page, widgets.length);
      release();
      await settled(page);
      assert.deepEqual(await heights(page), before, "every widget keeps the height it reserved");
      assert.equal(await cls(page), 0, "cumulative layout shift");

      for (const [i, attrs] of widgets.entries()) {
        if (attrs.variant === "list") {
          assert.deepEqual(await shownIds(page, i), expectedIds(attrs), `widget ${i} ${JSON.stringify(attrs)}`);
          const texts = await page.locator(`#w${i} article .text`).allTextContents();
          const byId = new Map(dataset.reviews.map((r) => [r.id, r]));
          for (const [j, id] of expectedIds(attrs).entries()) {
            const full = (byId.get(id)?.text ?? "").replace(/\s+/g, " ").trim();
            const shown = texts[j].endsWith("…") ? texts[j].slice(0, -1) : texts[j];
            assert.ok(full.startsWith(shown), `review ${id}'s text is its own (escaped as text): ${texts[j]}`);
          }
        } else if (attrs.variant === "aspects") {
          const labels = await page.locator(`#w${i} li .label`).allTextContents();
          const counts = new Map<string, number>();
          for (const r of slice(attrs))
            for (const a of new Set(r.aspects.map((x) => x.aspect))) counts.set(a, (counts.get(a) ?? 0) + 1);
          const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6);
          assert.equal(labels.length, top.length);
          const shownCounts = (await page.locator(`#w${i} li .share`).allTextContents()).map((t) =>
            Number(/(\d+) reviews?/.exec(t)?.[1]),
          );
          assert.deepEqual(
            shownCounts,
            top.map(([, n]) => n),
            "aspects, most discussed first, with their review counts",
          );
        } else {
          const agg = aggregateRating(slice(attrs));
          const text = (await page.locator(`#w${i} .whole`).textContent()) ?? "";
          const value = new Intl.NumberFormat("en", { maximumFractionDigits: 1 }).format(agg.rating_value);
          assert.ok(text.includes(`Rated ${value} out of 5 from ${agg.review_count} reviews`), `badge ${i}: ${text}`);
        }
      }
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `${overflow} px too wide at ${width} px`);
      assert.deepEqual(await violations(page), [], "CSP violations");
      assert.deepEqual(recorded.errors, [], "console errors");
      assert.deepEqual(recorded.warnings, [], "console warnings");
      assertOnlyTwoOrigins(recorded);
      assert.ok(recorded.requests.some((u) => u === `${origin}/widget.js`));
      assert.deepEqual(await axeViolations(page), [], "axe");
      assert.deepEqual(await context.cookies(), [], "no cookies");
      await context.close();
    });
  }
});

test("a wrong value falls back to the default with one warning; an unknown id shows every review", async () => {
  assert.ok(fixture);
  const context = await fixture.browser.newContext({ viewport: { width: 800, height: 900 } });
  const recorded = await record(context);
  const widgets: Attrs[] = [
    { variant: "carousel" },
    { variant: "list", count: "99", sort: "random", technician: "nobody" },
    {
      variant: "list",
      count: "2",
      technician: dataset.business.technicians[0].id,
      service: dataset.business.services[0].id,
    },
  ];
  const page = await openHost(context, recorded, widgets);
  await settled(page);
  assert.equal(await page.locator("#w0 .whole").count(), 1, "variant=carousel shows the badge");
  assert.deepEqual(await shownIds(page, 1), expectedIds({ count: "5" }), "count, sort and the technician fall back");
  assert.deepEqual(
    await shownIds(page, 2),
    expectedIds({ count: "2", technician: dataset.business.technicians[0].id }),
  );
  const warnings = recorded.warnings.sort();
  for (const part of ['variant="carousel"', 'count="99"', 'sort="random"', 'technician="nobody"', "only one of"]) {
    assert.equal(
      warnings.filter((w) => w.includes(part)).length,
      1,
      `one warning naming ${part}: ${warnings.join(" | ")}`,
    );
  }
  assert.equal(warnings.length, 5, warnings.join(" | "));
  // The browser's own line for the unknown technician's 404, and nothing else.
  assert.deepEqual(
    recorded.errors.filter((e) => !/status of 404/.test(e)),
    [],
  );
  await context.close();
});

test("data is shown as text, never as markup; only http(s) links and a hex brand colour are taken from it", async () => {
  assert.ok(fixture);
  const context = await fixture.browser.newContext({ colorScheme: "light" });
  const recorded = await record(context);
  const page = await openHost(context, recorded, [{ variant: "list", count: "1" }, {}]);
  await page.route(`${origin}/widget-data/all.reviews.json`, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    body.reviews[0].title = '<img src=x onerror="window.__pwned=1">';
    body.reviews[0].author = "<b>bold</b>";
    body.reviews[0].url = "javascript:window.__pwned=2";
    body.business.brand_color = "#0a7d55";
    await route.fulfill({ response: res, json: body });
  });
  await page.route(`${origin}/widget-data/all.json`, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    body.business.brand_color = "#000}:host{display:none";
    await route.fulfill({ response: res, json: body });
  });
  await page.reload();
  await settled(page);
  assert.equal(await page.locator("#w0 h3").textContent(), '<img src=x onerror="window.__pwned=1">');
  assert.equal(await page.locator("#w0 img, #w0 b").count(), 0);
  assert.equal(await page.locator("#w0 h3 a").getAttribute("href"), "#");
  await page.locator("#w0 h3 a").click();
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  const accent = (i: number) => page.locator(`#w${i} .frame`).evaluate((el) => getComputedStyle(el).borderTopColor);
  assert.equal(await accent(0), "rgb(10, 125, 85)", "the brand colour");
  assert.equal(await accent(1), "rgb(180, 83, 9)", "a colour that is not #rgb or #rrggbb is ignored");
  assert.ok((await page.locator("#w1").boundingBox())?.height, "and changes nothing else");
  assert.deepEqual(await violations(page), []);
  await context.close();
});

test("the keyboard reaches every link of a list in order: each review's permalink, then all reviews", async () => {
  assert.ok(fixture);
  const context = await fixture.browser.newContext();
  const recorded = await record(context);
  const page = await openHost(context, recorded, [{ variant: "list", count: "3" }]);
  await settled(page);
  const reached: string[] = [];
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press("Tab");
    reached.push(
      await page.evaluate(() => {
        const inner = document.activeElement?.shadowRoot?.activeElement as HTMLAnchorElement | null | undefined;
        return inner?.href ?? String(document.activeElement?.tagName);
      }),
    );
  }
  const ids = expectedIds({ count: "3" });
  assert.deepEqual(reached, [...ids.map((id) => `${origin}/reviews/${id}/`), `${origin}/reviews/`]);
  await context.close();
});

test("lang sets the dates' language, attributes changed later re-render, and the page may set the accent and the frame", async () => {
  assert.ok(fixture);
  const context = await fixture.browser.newContext({ colorScheme: "light" });
  const recorded = await record(context);
  const path = `/site-${hostPages.size}.html`;
  const css = "#w1 { --rw-brand: #0a7d55; } #w1::part(frame) { border-left-width: 7px; }";
  hostPages.set(path, {
    widgets: [
      { variant: "list", count: "1", lang: "de" },
      { variant: "list", count: "3" },
    ],
    script: "/widget.js",
    reserve: "stylesheet",
    css,
  });
  const page = await context.newPage();
  watch(page, recorded);
  await page.goto(`${hostOrigin}${path}`);
  await settled(page);
  const newest = dataset.reviews[0];
  const german = new Intl.DateTimeFormat("de", { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${newest.date}T00:00:00Z`),
  );
  assert.equal(await page.locator("#w0 time").textContent(), german);
  assert.equal(await page.locator("#w0 time").getAttribute("datetime"), newest.date);
  const frame = page.locator("#w1 .frame");
  assert.equal(await frame.evaluate((el) => getComputedStyle(el).borderTopColor), "rgb(10, 125, 85)");
  assert.equal(await frame.evaluate((el) => getComputedStyle(el).borderLeftWidth), "7px");
  await page.locator("#w1").evaluate((el) => el.setAttribute("count", "2"));
  await page.waitForFunction(() => document.querySelector("#w1")?.shadowRoot?.querySelectorAll("article").length === 2);
  assert.deepEqual(await shownIds(page, 1), expectedIds({ count: "2" }));
  assert.deepEqual(recorded.warnings, []);
  assert.deepEqual(recorded.errors, []);
  await context.close();
});

test("content inside the tag shows only when the script cannot load", async () => {
  assert.ok(fixture);
  const context = await fixture.browser.newContext();
  const recorded = await record(context);
  const path = `/site-${hostPages.size}.html`;
  const inside = `<a href="${origin}/reviews/">Read our customer reviews</a>`;
  hostPages.set(path, { widgets: [{}], script: "/widget.js", reserve: "stylesheet", inside });
  const page = await context.newPage();
  watch(page, recorded);
  await page.goto(`${hostOrigin}${path}`);
  await settled(page);
  assert.equal(await page.locator("#w0 > a").isVisible(), false, "the widget's shadow root replaces it");
  assert.equal(await page.locator("#w0 .whole").isVisible(), true);
  const other = await context.newPage();
  await other.route(`${origin}/widget.js`, (route) => route.abort("connectionrefused"));
  await other.goto(`${hostOrigin}${path}`);
  assert.equal(await other.locator("#w0 > a").isVisible(), true, "without the script, the page's own link shows");
  assert.deepEqual(await violations(other), []);
  await context.close();
});

test("an unreachable service leaves a link to the reviews in the reserved box, with one warning per widget", async () => {
  assert.ok(fixture);
  const context = await fixture.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const recorded = await record(context);
  const widgets: Attrs[] = [{}, { variant: "list", count: "3" }, { variant: "aspects" }];
  const normal = await openHost(context, recorded, widgets);
  await settled(normal);
  const reserved = await heights(normal);
  await normal.close();
  recorded.warnings.length = 0;
  const page = await openHost(context, recorded, widgets, { abortData: true });
  await settled(page);
  assert.deepEqual(await heights(page), reserved);
  for (let i = 0; i < widgets.length; i++) {
    assert.equal(await page.locator(`#w${i} .status a`).getAttribute("href"), `${origin}/reviews/`);
  }
  assert.equal(recorded.warnings.filter((w) => w.includes("could not be loaded")).length, widgets.length);
  assert.equal(await cls(page), 0);
  assert.deepEqual(await axeViolations(page), []);
  await context.close();
});

test("the hashed twin of widget.js works the same; the badge and a list of 5 stay within their transfer budgets", async () => {
  assert.ok(fixture);
  const twin = (await readdir(join(fixture.dist, "_astro"))).find((f) => /^widget\.[0-9a-f]+\.js$/.test(f));
  assert.ok(twin, "the build wrote the hashed twin");
  const context = await fixture.browser.newContext();
  const recorded = await record(context);
  const page = await openHost(context, recorded, [{ variant: "list", count: "5" }], { script: `/_astro/${twin}` });
  await settled(page);
  assert.deepEqual(await shownIds(page, 0), expectedIds({ count: "5" }));
  assert.deepEqual(await violations(page), []);
  const res = await fetch(`${origin}/_astro/${twin}`);
  assert.match(res.headers.get("cache-control") ?? "", /immutable/);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  await res.arrayBuffer();
  await context.close();

  // Cold-load transfer with brotli, as a CDN would send it.
  const brotli = async (path: string) => {
    const r = await fetch(`${origin}${path}`, { headers: { "Accept-Encoding": "br" } });
    assert.equal(r.headers.get("content-encoding"), "br", path);
    await r.arrayBuffer();
    return Number(r.headers.get("content-length"));
  };
  const script = await brotli("/widget.js");
  const badge = script + (await brotli("/widget-data/all.json"));
  const list = script + (await brotli("/widget-data/all.reviews.json"));
  console.log(`widget transfer (brotli): script ${script} B, badge ${badge} B, list ${list} B`);
  assert.ok(badge <= 8 * 1024, `badge ${badge} B`);
  assert.ok(list <= 16 * 1024, `list ${list} B`);
});

for (const width of [320, 1280]) {
  test(`the /widget/ page shows every variant live with its snippet, axe clean, nothing sideways at ${width} px`, async () => {
    assert.ok(fixture);
    const context = await fixture.browser.newContext({ viewport: { width, height: 900 } });
    const recorded = await record(context);
    const page = await context.newPage();
    watch(page, recorded);
    const response = await page.goto(`${origin}/widget/`);
    assert.equal(response?.status(), 200);
    await settled(page);
    const variants = await page
      .locator("reviews-widget")
      .evaluateAll((els) => els.map((e) => e.getAttribute("variant") ?? "badge"));
    assert.deepEqual([...new Set(variants)].sort(), ["aspects", "badge", "list"]);
    const snippets = await page.locator("pre code").allTextContents();
    assert.ok(snippets.includes(`<script type="module" src="${origin}/widget.js"></script>`), snippets.join("\n"));
    for (const el of await page.locator("reviews-widget").all()) {
      const attrs = await el.evaluate((e) => [...e.attributes].map((a) => ` ${a.name}="${a.value}"`).join(""));
      assert.ok(snippets.includes(`<reviews-widget${attrs}></reviews-widget>`), `the snippet of${attrs}`);
    }
    assert.equal(await page.locator("reviews-widget .whole").first().count(), 1);
    assert.ok((await page.locator("reviews-widget article").count()) > 0);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `${overflow} px too wide`);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(recorded.errors, []);
    assert.deepEqual(recorded.warnings, []);
    await context.close();
  });
}

test("the script and every data file answer as the served OpenAPI document says, an unknown id with its 404", async () => {
  const api = new OpenApiValidator(await (await fetch(`${origin}/.well-known/openapi.json`)).json());
  const paths = [WIDGET_SCRIPT_PATH, widgetDataPaths().summary, widgetDataPaths().reviews];
  for (const [kind, field] of Object.entries(WIDGET_ENTITY_FIELDS) as [WidgetEntity, "services"][]) {
    const { summary, reviews } = widgetDataPaths({ kind, id: dataset.business[field][0].id });
    paths.push(summary, reviews, widgetDataPaths({ kind, id: "no-such-entry" }).reviews);
  }
  for (const path of paths) {
    for (const accept of ["application/json", "text/html"]) {
      const res = await fetch(`${origin}${path}`, { headers: { Accept: accept } });
      const body = await res.text();
      assert.equal(res.status, path.includes("no-such-entry") ? 404 : 200, path);
      await api.check("get", `${origin}${path}`, res, body);
    }
  }
  assert.equal(api.checked, 2 * paths.length);
});

test("after a rebuild the same script URL shows the new data", async () => {
  assert.ok(fixture);
  const content = await contentFixture({
    "reviews/2026/zz-widget-newest.json": {
      rating: 5,
      date: "2026-11-25",
      title: "Only in the second build",
      text: "The furnace runs quietly again.",
      author: "Ada W.",
      verified: true,
    },
  });
  try {
    const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: fixture.dist, BASE_URL: origin });
    assert.equal(run.code, 0, run.stderr);
  } finally {
    await rm(content, { recursive: true, force: true });
  }
  await until("the sidecar to serve the second build's widget data", async () =>
    (await (await fetch(`${origin}/widget-data/all.reviews.json`)).text()).includes("zz-widget-newest"),
  );
  const context = await fixture.browser.newContext();
  const recorded = await record(context);
  const page = await openHost(context, recorded, [{ variant: "list", count: "1" }]);
  await settled(page);
  assert.deepEqual(await shownIds(page, 0), ["zz-widget-newest"]);
  assert.deepEqual(recorded.errors, []);
  await context.close();
});
