// Everything the build publishes, computed once from the content. The Astro endpoints only serialise it.
import type { Config } from "../config.ts";
import { renderAtomFeed } from "../domain/feeds/atom-feed.ts";
import { renderJsonFeed } from "../domain/feeds/json-feed.ts";
import { buildInsights } from "../domain/insights/build-insights.ts";
import { parseEditorial } from "../domain/insights/editorial.ts";
import { renderOpenApi } from "../domain/openapi.ts";
import { describeFindings } from "../domain/pii/guard-reviews.ts";
import { DEFAULT_PII_POLICY } from "../domain/pii/policy.ts";
import { guardContent, publishDataset } from "../domain/publish-reviews.ts";
import type { Insights } from "../domain/schemas/insights.ts";
import type { JsonFeed, ReviewsDataset } from "../domain/schemas/published.ts";
import { validateContent } from "../domain/validate-content.ts";
import { analyseWithCache } from "./analysis/analysis-cache.ts";
import { misplacedWarning, readContent } from "./read-content.ts";

export interface SiteData {
  baseUrl: string;
  /** Milliseconds per phase, for `npm run build -- --timings` and the benchmarks. */
  timings: Record<string, number>;
  /** Lines for the build's output: ignored files, redacted contact details. */
  warnings: string[];
  dataset: ReviewsDataset;
  /**
   * reviews.json: JSON.stringify(dataset) as UTF-8, made once. Astro's endpoint sends these bytes, and the build
   * compresses and indexes them while Astro renders.
   */
  datasetJson: Uint8Array<ArrayBuffer>;
  insights: Insights;
  jsonFeed: JsonFeed;
  atom: string;
  openapi: object;
}

export async function computeSite(
  config: Pick<Config, "CONTENT_DIR" | "BASE_URL"> & Partial<Pick<Config, "PII_POLICY" | "BUILD_CACHE_DIR">>,
): Promise<SiteData> {
  const timings: Record<string, number> = {};
  const timed = async <T>(phase: string, fn: () => T | Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const out = await fn();
    timings[phase] = Math.round(performance.now() - t0);
    return out;
  };
  const raw = await timed("read", () => readContent(config.CONTENT_DIR));
  const today = new Date().toISOString().slice(0, 10);
  const content = await timed("validate", () => validateContent(raw.business, raw.reviews, { today }));
  const editorial = raw.editorial ? parseEditorial(raw.editorial.text, raw.editorial.path) : undefined;
  // Contact details are handled before anything is analysed or cached, so no output (and no cache entry) can
  // hold the customer's original words.
  const policy = config.PII_POLICY ?? DEFAULT_PII_POLICY;
  const guarded = await timed("guard", () => guardContent(content, policy));
  const analysis = await timed("analyse", () =>
    analyseWithCache(guarded.content, raw.reviews, config.BUILD_CACHE_DIR, policy),
  );
  Object.assign(timings, { reviews_analysed: analysis.analysed, reviews_from_cache: analysis.cached });
  const published = await timed("publish", () =>
    publishDataset(guarded.content, { publish: analysis.publish, piiPolicy: "off" }),
  );
  const warnings = [
    ...raw.misplaced.map(misplacedWarning),
    ...(policy === "off" ? [] : describeFindings(guarded.findings)),
  ];
  const { dataset } = published;
  const baseUrl = config.BASE_URL;
  const insights = await timed("insights", () => buildInsights(published, editorial, analysis.partsOf));
  const [jsonFeed, atom, openapi] = await timed(
    "feeds",
    () =>
      [
        renderJsonFeed(dataset, baseUrl),
        renderAtomFeed(dataset, baseUrl),
        renderOpenApi(dataset.business, baseUrl),
      ] as const,
  );
  const datasetJson = await timed("serialise", () => new TextEncoder().encode(JSON.stringify(dataset)));
  return { baseUrl, timings, warnings, dataset, datasetJson, insights, jsonFeed, atom, openapi };
}

// The build script computes the site before Astro runs (so content errors are reported plainly and only once)
// and hands it over here; Astro loads this module through Vite, so a module-level variable would not be shared.
const HANDOFF = Symbol.for("reviews-publication-service.site-data");

export function handOver(site: SiteData): void {
  (globalThis as Record<symbol, unknown>)[HANDOFF] = site;
}

let pending: Promise<SiteData> | undefined;

/** The site for Astro endpoints and pages: the handed-over one, or computed from the environment (astro dev). */
export function getSiteData(): Promise<SiteData> {
  const handed = (globalThis as Record<symbol, unknown>)[HANDOFF] as SiteData | undefined;
  if (handed) return Promise.resolve(handed);
  pending ??= import("../config.ts").then(({ loadConfig }) => computeSite(loadConfig()));
  return pending;
}
