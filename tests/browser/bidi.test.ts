// A review whose title, author and text carry an unclosed right-to-left override (U+202E): on every page type
// that shows it, Chromium lays each such text out in an isolated box (nothing outside it is reordered), and the
// page title and meta description close the override they contain.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { launchChromium, routeLocalhost, SITE_ORIGIN, serveSite } from "../helpers/browser.ts";
import { contentFixture, runBuild } from "../helpers/build.ts";
import { tempDir } from "../helpers/paths.ts";

const RLO = "\u202e";
const ID = "2026-11-28-mallory-r";
let origin: string;
let sidecar: RunningSidecar;
let browser: Browser;

before(async () => {
  const content = await contentFixture({
    [`reviews/2026/${ID}.json`]: {
      rating: 2,
      date: "2026-11-28",
      title: `Late ${RLO}again and`,
      text: `Marcus Delgado was late. ${RLO}The drain still clogs, and the price was too high.`,
      author: `Mallory ${RLO}R.`,
      verified: true,
      source: "website",
      technicians: ["marcus-delgado"],
    },
  });
  origin = SITE_ORIGIN;
  const dist = join(await tempDir("dist"), "dist");
  // Built for the sample's origin, so the page bundle this process keeps serves it: only the data is built here.
  const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist, BASE_URL: origin });
  assert.equal(run.code, 0, run.stderr);
  let address: string;
  ({ sidecar, address } = await serveSite(dist));
  routeLocalhost(address);
  browser = await launchChromium(address);
});
after(async () => {
  await browser?.close();
  await sidecar?.close();
});

test("every text with an override sits in an isolated box on the review, home, list and technician pages", async () => {
  const page = await browser.newPage();
  for (const path of [`/reviews/${ID}/`, "/", "/reviews/", "/technicians/marcus-delgado/"]) {
    const res = await page.goto(`${origin}${path}`, { waitUntil: "domcontentloaded" });
    assert.equal(res?.status(), 200, path);
    const found = await page.evaluate((rlo) => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const out: { text: string; isolated: boolean }[] = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent?.includes(rlo)) continue;
        // The nearest element around the text must start an isolate: its own bidi context, closed at its end.
        const el = n.parentElement as HTMLElement;
        const bidi = getComputedStyle(el).unicodeBidi;
        out.push({ text: n.textContent, isolated: bidi === "isolate" || bidi === "plaintext" });
      }
      return out;
    }, RLO);
    assert.ok(found.length > 0, `${path} shows the review`);
    for (const f of found) assert.ok(f.isolated, `${path}: ${JSON.stringify(f.text)} is not isolated`);
  }
  await page.goto(`${origin}/reviews/${ID}/`, { waitUntil: "domcontentloaded" });
  const title = await page.title();
  const description = (await page.locator('meta[name="description"]').getAttribute("content")) ?? "";
  for (const text of [title, description]) {
    const opened = [...text].filter((c) => c === RLO).length;
    const closed = [...text].filter((c) => c === "\u202c").length;
    assert.ok(opened > 0 && closed >= opened, `every override closed in ${JSON.stringify(text)}`);
  }
  await page.close();
});
