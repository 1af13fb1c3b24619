// The business's own details on the pages, in Chromium with JavaScript on and off: a content folder with every
// optional field (tap-to-call and booking above the fold on a phone, hours, leave-a-review, licence, logo, photos,
// brand colour, JSON-LD) and one with none of them (nothing of them appears, no empty boxes).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { RunningSidecar } from "../../sidecar/server.ts";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { launchChromium, SITE_ORIGIN, serveSite } from "../helpers/browser.ts";
import { contentFixture, runBuild } from "../helpers/build.ts";
import { tempDir } from "../helpers/paths.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

const OPTIONAL = [
  "telephone",
  "opening_hours",
  "logo",
  "photos",
  "booking_url",
  "review_url",
  "licence",
  "brand_color",
] as const;

interface Site {
  origin: string;
  sidecar: RunningSidecar;
  /** A Chromium of its own: both sites are served at SITE_ORIGIN, each on its own address. */
  browser: Browser;
  reviewId: string;
}

/**
 * The sample's reviews with `business` as business.json, built for SITE_ORIGIN (only the data: the page bundle this
 * process keeps is for that origin) and served on a loopback address of its own.
 */
async function serveWith(business: (origin: string) => Record<string, unknown>): Promise<Site> {
  const origin = SITE_ORIGIN;
  const content = await contentFixture({ "business.json": business(origin) });
  const dist = join(await tempDir("dist"), "dist");
  const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist, BASE_URL: origin });
  if (run.code !== 0) throw new Error(`build failed:\n${run.stderr}`);
  const { sidecar, address } = await serveSite(dist);
  const browser = await launchChromium(address).catch(async (e) => {
    await sidecar.close();
    throw e;
  });
  const dataset = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")) as ReviewsDataset;
  return { origin, sidecar, browser, reviewId: dataset.reviews[0].id };
}

const sample = JSON.parse(await readFile(join(SAMPLE_CONTENT, "business.json"), "utf8")) as Record<string, unknown>;
const BRAND = "#7a1f5c";

let full: Site | undefined;
let bare: Site | undefined;

before(async () => {
  full = await serveWith((origin) => ({
    ...sample,
    telephone: "+1 (208) 555-0147",
    opening_hours: ["Mo-Fr 07:30-18:00", "Sa 08:00-12:00"],
    logo: `${origin}/favicon.svg`,
    photos: [
      { src: `${origin}/favicon.svg`, alt: "Our van outside a customer's home" },
      { src: `${origin}/favicon.svg?2`, alt: "A new furnace, installed" },
    ],
    booking_url: "https://book.example/summit",
    review_url: "https://reviews.example/summit/new",
    licence: "Licence HVC-1234",
    brand_color: BRAND,
  }));
  bare = await serveWith(() =>
    Object.fromEntries(Object.entries(sample).filter(([k]) => !OPTIONAL.includes(k as never))),
  );
});

after(async () => {
  for (const site of [full, bare]) {
    await site?.browser.close();
    await site?.sidecar.close();
  }
});

const jsonLd = async (page: Page) =>
  JSON.parse((await page.locator("script[type='application/ld+json']").first().textContent()) ?? "{}");

for (const javaScriptEnabled of [true, false]) {
  describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test("every field present: call and book above the fold on a phone, hours, review link, licence, logo, photos, JSON-LD", async () => {
      const site = full as Site;
      const context = await site.browser.newContext({ viewport: { width: 375, height: 667 }, javaScriptEnabled });
      const page = await context.newPage();
      for (const path of ["/", `/reviews/${site.reviewId}/`]) {
        await page.goto(`${site.origin}${path}`);
        const call = page.locator("[data-testid=call]");
        const book = page.locator("[data-testid=book]");
        assert.equal(await call.getAttribute("href"), "tel:+12085550147", path);
        assert.equal(await book.getAttribute("href"), "https://book.example/summit", path);
        for (const button of [call, book]) {
          const box = await button.boundingBox();
          assert.ok(box && box.y + box.height <= 667 && box.x + box.width <= 375, `${path}: above the fold`);
        }
        const colours = await book.evaluate((e) => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color]);
        assert.deepEqual(colours, ["rgb(122, 31, 92)", "rgb(255, 255, 255)"], `${path}: the brand colour`);
      }
      await page.goto(`${site.origin}/`);
      assert.deepEqual(await page.locator("[data-testid=hours] li").allInnerTexts(), [
        "Monday to Friday: 07:30 to 18:00",
        "Saturday: 08:00 to 12:00",
      ]);
      assert.equal(
        await page.locator("[data-testid=leave-review]").getAttribute("href"),
        "https://reviews.example/summit/new",
      );
      assert.equal(await page.locator("[data-testid=licence]").innerText(), "Licence HVC-1234");
      assert.equal(await page.locator("[data-testid=logo]").getAttribute("src"), `${site.origin}/favicon.svg`);
      assert.deepEqual(
        await page.locator("[data-testid=photos] img").evaluateAll((els) => els.map((e) => e.getAttribute("alt"))),
        ["Our van outside a customer's home", "A new furnace, installed"],
      );
      const ld = await jsonLd(page);
      assert.deepEqual(ld.openingHours, ["Mo-Fr 07:30-18:00", "Sa 08:00-12:00"]);
      assert.equal(ld.logo, `${site.origin}/favicon.svg`);
      assert.deepEqual(ld.image, [
        `${site.origin}/favicon.svg`,
        `${site.origin}/favicon.svg`,
        `${site.origin}/favicon.svg?2`,
      ]);
      assert.deepEqual(ld.potentialAction, [
        { "@type": "ReserveAction", target: { "@type": "EntryPoint", urlTemplate: "https://book.example/summit" } },
        {
          "@type": "ReviewAction",
          target: { "@type": "EntryPoint", urlTemplate: "https://reviews.example/summit/new" },
        },
      ]);
      await context.close();
    });

    test("every field absent: none of them appears on the page or in the JSON-LD", async () => {
      const site = bare as Site;
      const context = await site.browser.newContext({ viewport: { width: 375, height: 667 }, javaScriptEnabled });
      const page = await context.newPage();
      for (const path of ["/", `/reviews/${site.reviewId}/`]) {
        await page.goto(`${site.origin}${path}`);
        for (const id of ["actions", "call", "book", "hours", "leave-review", "licence", "logo", "photos"])
          assert.equal(await page.locator(`[data-testid=${id}]`).count(), 0, `${path}: ${id}`);
        assert.equal(await page.locator("a[href^='tel:']").count(), 0, path);
        assert.equal(await page.locator("body").getAttribute("style"), null, `${path}: no brand colour`);
      }
      await page.goto(`${site.origin}/`);
      const ld = await jsonLd(page);
      for (const key of ["openingHours", "logo", "image", "potentialAction", "telephone"])
        assert.equal(ld[key], undefined, key);
      await context.close();
    });
  });
}
