// Everything the build publishes, computed once from the content: the data files (site-files.ts) are its bytes and
// the pages render from it.
import type { Config } from "../config.ts";
import { renderAtomFeed } from "../domain/feeds/atom-feed.ts";
import { renderJsonFeed } from "../domain/feeds/json-feed.ts";
import { sha256Hex } from "../domain/hash.ts";
import { type AuthorNamePolicy, DEFAULT_AUTHOR_NAME_POLICY } from "../domain/import/author-name.ts";
import { buildInsights } from "../domain/insights/build-insights.ts";
import { type EditorialContent, parseEditorial } from "../domain/insights/editorial.ts";
import { renderOpenApi } from "../domain/openapi.ts";
import { EXAMPLE_REVIEW_POOL } from "../domain/openapi-answer-examples.ts";
import { describeFindings } from "../domain/pii/guard-reviews.ts";
import { DEFAULT_PII_POLICY, type PiiPolicy } from "../domain/pii/policy.ts";
import { guardContent, nameAuthors, publishDataset } from "../domain/publish-reviews.ts";
import type { BusinessContent } from "../domain/schemas/content.ts";
import type { Insights } from "../domain/schemas/insights.ts";
import type { JsonFeed, ReviewsDataset } from "../domain/schemas/published.ts";
import { type DatasetJson, serialiseDataset } from "../domain/search/index-writer.ts";
import { type ReviewFile, validateContent } from "../domain/validate-content.ts";
import { analyseWithCache } from "./analysis/analysis-cache.ts";
import { codeHash, packageVersion } from "./code-hash.ts";
import type { SnapshotRead } from "./content-snapshot.ts";
import { linkWarning, misplacedWarning, type RawContent, readContentForBuild } from "./read-content.ts";

export interface SiteData {
  baseUrl: string;
  /** Milliseconds per phase, for `npm run build -- --timings` and the benchmarks. */
  timings: Record<string, number>;
  /** Lines for the build's output: ignored files, redacted contact details. */
  warnings: string[];
  dataset: ReviewsDataset;
  /**
   * reviews.json: JSON.stringify(dataset) as UTF-8, made once: the build writes, compresses and indexes these
   * bytes.
   */
  datasetJson: Uint8Array<ArrayBuffer>;
  /** Where each review starts in datasetJson (serialiseDataset): the search index takes them from here. */
  reviewOffsets: Uint32Array<ArrayBuffer>;
  insights: Insights;
  jsonFeed: JsonFeed;
  atom: string;
  openapi: object;
}

type SiteConfig = Pick<Config, "CONTENT_DIR" | "BASE_URL"> &
  Partial<Pick<Config, "PII_POLICY" | "BUILD_CACHE_DIR" | "AUTHOR_NAME_POLICY" | "AUTHOR_NAME_SCOPE">>;

/** The content read, validated and guarded: every ContentError a build can raise has been raised by now. */
export interface CheckedContent {
  config: SiteConfig;
  timings: Record<string, number>;
  raw: RawContent<ReviewFile>;
  /** What the build knew of each review file before this build (content-snapshot.ts). */
  snapshot: SnapshotRead;
  guarded: ReturnType<typeof guardContent>;
  editorial: EditorialContent | undefined;
  policy: PiiPolicy;
  /** The author-name policy the published names were written with (AUTHOR_NAME_SCOPE=all), if any. */
  authorNames: AuthorNamePolicy | undefined;
}

const timer =
  (timings: Record<string, number>) =>
  async <T>(phase: string, fn: () => T | Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const out = await fn();
    timings[phase] = Math.round(performance.now() - t0);
    return out;
  };

export async function checkContent(config: SiteConfig): Promise<CheckedContent> {
  const timings: Record<string, number> = {};
  const timed = timer(timings);
  const { raw, snapshot } = await timed("read", () => readContentForBuild(config.CONTENT_DIR, config.BUILD_CACHE_DIR));
  Object.assign(timings, { files_read: snapshot.read, files_from_snapshot: snapshot.statOnly });
  const today = new Date().toISOString().slice(0, 10);
  const content = await timed("validate", () => validateContent(raw.business, raw.reviews, { today }));
  // Contact details are handled before anything is analysed or cached, so no output (and no cache entry) can
  // hold the customer's original words. A review the snapshot records as found clean under the same guard is
  // not searched again.
  const policy = config.PII_POLICY ?? DEFAULT_PII_POLICY;
  // Without a cache folder there is no snapshot to find a review clean in: no fingerprint to work out.
  const guardAs =
    policy === "off" || config.BUILD_CACHE_DIR === undefined
      ? undefined
      : await guardFingerprint(content.business, policy);
  let guarded: ReturnType<typeof guardContent> | undefined;
  try {
    guarded = await timed("guard", () =>
      guardContent(content, policy, guardAs ? (r) => snapshot.cleanUnder(r.file) === guardAs : undefined),
    );
  } finally {
    // Only now, when every file passed: a file with problems is never kept (contact details refused by the
    // policy are no problem of the file's). Failing to write it costs the next build its reading, not this build.
    const found = new Set(guarded?.findings.map((f) => f.file));
    const guard =
      guarded && guardAs
        ? {
            fingerprint: guardAs,
            clean: new Set(content.reviews.filter((r) => r.content.verified && !found.has(r.file)).map((r) => r.file)),
          }
        : undefined;
    await timed("snapshot", () =>
      snapshot
        .save(new Map(content.reviews.map((r) => [r.file, r.content])), guard)
        .catch((e: NodeJS.ErrnoException) => {
          snapshot.warnings.push(`warning: the content snapshot could not be written: ${e.code ?? e.message}`);
        }),
    );
  }
  const editorial = raw.editorial ? parseEditorial(raw.editorial.text, raw.editorial.path) : undefined;
  // After the snapshot: it records the files as written, and the names are the published form of them.
  const authorNames =
    config.AUTHOR_NAME_SCOPE === "all" ? (config.AUTHOR_NAME_POLICY ?? DEFAULT_AUTHOR_NAME_POLICY) : undefined;
  const named = authorNames ? { ...guarded, content: nameAuthors(guarded.content, authorNames) } : guarded;
  return { config, timings, raw, snapshot, guarded: named, editorial, policy, authorNames };
}

/**
 * What the contact-details guard's result depends on besides a review's text (content-snapshot.ts). Kept on every
 * line of the snapshot, so 64 bits of the sha256 (6 MB less to read back at 100,000 reviews than the whole).
 */
async function guardFingerprint(business: BusinessContent, policy: PiiPolicy): Promise<string> {
  const { address, telephone, email } = business;
  const hash = sha256Hex(
    JSON.stringify([
      await codeHash(["pii", "content-errors.ts"]),
      await packageVersion("libphonenumber-js"),
      process.versions.unicode,
      { address, telephone, email },
      policy,
    ]),
  );
  return hash.slice(0, 16);
}

/**
 * Everything published, from content that passed checkContent. `serialised` is called with reviews.json's bytes
 * as soon as they are made (before the insights, which do not change the dataset), so that the build can start
 * their compression and search index early.
 */
export async function completeSite(
  checked: CheckedContent,
  serialised?: (dataset: ReviewsDataset, made: DatasetJson) => void,
): Promise<SiteData> {
  const { config, timings, raw, snapshot, guarded, editorial, policy, authorNames } = checked;
  const timed = timer(timings);
  const analysis = await timed("analyse", () =>
    analyseWithCache(guarded.content, snapshot.keys, config.BUILD_CACHE_DIR, policy, authorNames),
  );
  Object.assign(timings, { reviews_analysed: analysis.analysed, reviews_from_cache: analysis.cached });
  const published = await timed("publish", () =>
    publishDataset(guarded.content, { publish: analysis.publish, piiPolicy: "off" }),
  );
  const warnings = [
    ...snapshot.warnings,
    ...raw.misplaced.map(misplacedWarning),
    ...raw.links.map(linkWarning),
    ...(policy === "off" ? [] : describeFindings(guarded.findings)),
  ];
  const { dataset } = published;
  const made = await timed("serialise", () => serialiseDataset(dataset, analysis.jsonOf));
  serialised?.(dataset, made);
  const baseUrl = config.BASE_URL;
  const insights = await timed("insights", () => buildInsights(published, editorial, analysis.partsOf));
  const [jsonFeed, atom, openapi] = await timed(
    "feeds",
    () =>
      [
        renderJsonFeed(dataset, baseUrl),
        renderAtomFeed(dataset, baseUrl),
        renderOpenApi(
          dataset.business,
          baseUrl,
          {},
          {
            reviews: dataset.reviews.slice(0, EXAMPLE_REVIEW_POOL),
            insights,
          },
        ),
      ] as const,
  );
  const { json: datasetJson, reviewOffsets } = made;
  return { baseUrl, timings, warnings, dataset, datasetJson, reviewOffsets, insights, jsonFeed, atom, openapi };
}

export async function computeSite(config: SiteConfig): Promise<SiteData> {
  return completeSite(await checkContent(config));
}

let pending: Promise<SiteData> | undefined;

/** The site for `astro dev` (its pages and src/dev/site-file.ts): computed once from the environment. */
export function getSiteData(): Promise<SiteData> {
  pending ??= import("../config.ts").then(({ loadConfig }) => computeSite(loadConfig()));
  return pending;
}
