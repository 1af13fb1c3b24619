// The API reference page in Chromium (every operation of the served document, accessible, nothing from another
// origin, linked from every page's footer and llms.txt), and a link check over the built site as the sidecar serves
// it: every internal href and src, <link rel> included, from the home page outwards.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type BrowserFixture, startBrowserFixture } from "../helpers/browser.ts";
import { ROOT } from "../helpers/paths.ts";

let fx: BrowserFixture;
before(async () => {
  fx = await startBrowserFixture();
});
after(() => fx?.close());

test("/docs/api/: every operation of the document, axe finds no violation, no request leaves the origin", async () => {
  const doc = (await (await fetch(`${fx.origin}/.well-known/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
  const context = await fx.browser.newContext({ viewport: { width: 375, height: 900 } });
  const page = await context.newPage();
  const foreign: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).origin !== fx.origin) foreign.push(r.url());
  });
  const res = await page.goto(`${fx.origin}/docs/api/`);
  assert.equal(res?.status(), 200);
  for (const id of ids) assert.equal(await page.locator(`h3[id="${id}"]`).count(), 1, `${id} is on the page`);
  assert.equal(await page.locator("h3").count(), ids.length);
  assert.equal(
    await page.locator("link[rel=canonical]").getAttribute("href"),
    `${fx.origin}/docs/api/`,
    "canonical URL",
  );
  const axe = await readFile(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
  await page.addScriptTag({ content: axe });
  const violations = await page.evaluate(async () => {
    const r = await (
      window as unknown as { axe: { run: () => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }
    ).axe.run();
    return r.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
  assert.deepEqual(violations, []);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.ok(overflow <= 0, `${overflow} px too wide at 375 px`);
  assert.deepEqual(foreign, []);
  await page.goto(`${fx.origin}/`);
  await page.locator("footer a", { hasText: "API reference" }).click();
  assert.equal(new URL(page.url()).pathname, "/docs/api/");
  await context.close();
  const llms = await (await fetch(`${fx.origin}/llms.txt`)).text();
  assert.ok(llms.includes(`(${fx.origin}/docs/api/)`), "llms.txt links the reference");
});

/** Every href and src of an HTML page (any element, <link rel> and <script> included), entities decoded. */
const linksOf = (html: string) =>
  [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1].replaceAll("&amp;", "&").replaceAll("&#39;", "'"));

/** What a link with a query string is an instance of: its path and the names of its parameters. */
const kindOf = (url: URL) => `${url.pathname}?${[...new Set(url.searchParams.keys())].sort().join("&")}`;

// Every distinct target linked from a page without a query string is fetched. A page reached through a query string
// (a filtered list) links to its own variations: every other filter value, order, star rating and next page, which
// link on to theirs, some 27,000 pages for the sample, every one rendered by the same page from the same parameters
// (the lists' contents are checked against an oracle in browse-reviews.test.ts). From such a page a link with a
// query string is followed once per kind (path and parameter names), so that every kind of link the lists make
// is checked, not every combination of values.
test("link check over the built site: every internal link answers 200, the hub's <link rel> included", async () => {
  const queue = ["/"];
  const seen = new Set(queue);
  const kinds = new Set<string>();
  const broken: string[] = [];
  let pages = 0;
  while (queue.length > 0) {
    const path = queue.shift() as string;
    const res = await fetch(`${fx.origin}${path}`);
    const type = res.headers.get("content-type") ?? "";
    if (res.status !== 200) broken.push(`${path}: ${res.status}`);
    if (!type.startsWith("text/html")) {
      await res.arrayBuffer();
      continue;
    }
    const body = await res.text();
    pages++;
    const filtered = path.includes("?");
    for (const link of linksOf(body)) {
      if (/^(mailto|tel|data):/.test(link)) continue;
      const url = new URL(link, `${fx.origin}${path}`);
      if (url.origin !== fx.origin) continue;
      const target = `${url.pathname}${url.search}`;
      if (seen.has(target)) continue;
      if (url.search) {
        if (filtered && kinds.has(kindOf(url))) continue;
        kinds.add(kindOf(url));
      }
      seen.add(target);
      queue.push(target);
    }
  }
  assert.deepEqual(broken, []);
  // The crawl reached every review's page, the hub and the reference (not just the home page).
  assert.ok(pages > fx.dataset.reviews.length, `${pages} pages crawled`);
  for (const path of ["/api/websub/hub", "/docs/api/", "/.well-known/openapi.json", "/feed.xml"]) {
    assert.ok(seen.has(path), `${path} is linked`);
  }
  // ... and the filtered lists, with their cursors to the next page.
  assert.ok(
    [...kinds].some((k) => k.startsWith("/reviews/?") && k.includes("cursor")),
    `the filtered lists' kinds of link: ${[...kinds].join(", ")}`,
  );
});
