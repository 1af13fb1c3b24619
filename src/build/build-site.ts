// content/ -> validated content -> site data, while Astro bundles into a temporary folder -> Astro's prerendered
// pages -> search index and manifest -> swapped into DIST_DIR.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../config.ts";
import { sha256Hex } from "../domain/hash.ts";
import { newestUpdated } from "../domain/order.ts";
import type { BuildManifest } from "../domain/schemas/manifest.ts";
import { INDEX_FILE } from "../domain/search/index-format.ts";
import { encodeReviewIndex } from "../domain/search/index-writer.ts";
import { CompressedVariants } from "./compressed-variants.ts";
import { outputPaths, recoverOutput } from "./output-folder.ts";
import { checkContent, completeSite, handOver, type SiteData } from "./site-data.ts";
import { writeStaticHostFiles } from "./static-host-files.ts";
import { writeManifest } from "./write-manifest.ts";
import { DATASET_FILE, startIndexing } from "./write-search-index.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface BuildResult {
  manifest: BuildManifest;
  timings: Record<string, number>;
  /** What the operator should read: recovered folders, an old folder kept, contact details found, misplaced files. */
  warnings: string[];
}

/** The build could not write its output; the previous output (if any) is untouched. */
export class OutputFolderError extends Error {}

type BuildConfig = Pick<Config, "CONTENT_DIR" | "BASE_URL" | "DIST_DIR"> &
  Partial<Pick<Config, "BUILD_TEST_FAULT">> &
  Partial<Pick<Config, "BUILD_CACHE_DIR" | "PII_POLICY">>;

export async function buildSite(config: BuildConfig): Promise<BuildResult> {
  const notices = await recoverOutput(config.DIST_DIR);
  const checked = await checkContent(config);
  const { dist, tmp, old } = outputPaths(config.DIST_DIR);
  const prepare = async () => {
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
  };
  await prepare().catch((e: NodeJS.ErrnoException) => {
    throw new OutputFolderError(
      `Cannot write the output next to DIST_DIR (${dist}): ${e.code ?? e.message} on ${dirname(dist)}. Set DIST_DIR to a writable folder.`,
    );
  });
  try {
    // Astro's own start (loading Vite, bundling the pages and the server code: 2-4 s) does not need the data, so
    // it runs meanwhile and only the prerendered pages wait for the site. Its bundling calls back into this thread
    // for every module, so it moves on while the analysis workers run (a full build) and between the steps this
    // thread takes (a rebuild). A failure on either side fails the build once both have stopped.
    const computing = Promise.withResolvers<SiteData>();
    handOver(computing.promise);
    const astroStart = performance.now();
    const astro = import("astro").then(({ build }) =>
      build({ root: ROOT, outDir: tmp, site: config.BASE_URL, logLevel: "warn" }),
    );
    astro.catch(() => undefined); // awaited below: not an unhandled rejection while the data is computed
    completeSite(checked).then(computing.resolve, computing.reject);
    const site = await computing.promise.catch(async (e: unknown) => {
      await astro.catch(() => undefined);
      throw e;
    });
    // reviews.json is the dataset's bytes made by completeSite (src/pages/reviews.json.ts sends them): their
    // compression (libuv's thread pool) and, for many reviews, the search index (a worker thread) run while
    // Astro renders. What Astro wrote is compared with these bytes before the index is used.
    const datasetJson = Buffer.from(site.datasetJson.buffer, site.datasetJson.byteOffset, site.datasetJson.length);
    const variants = new CompressedVariants(config.BUILD_CACHE_DIR);
    void variants.of(datasetJson, sha256Hex(datasetJson));
    const indexed = startIndexing(site.dataset, datasetJson);
    let t0 = performance.now();
    await astro;
    // astro: what the build waited for Astro once the data was ready; astro_total: from Astro's start.
    site.timings.astro = Math.round(performance.now() - t0);
    site.timings.astro_total = Math.round(performance.now() - astroStart);
    t0 = performance.now();
    const written = await readFile(join(tmp, DATASET_FILE));
    const index = written.equals(datasetJson) ? await indexed() : encodeReviewIndex(site.dataset, written);
    await writeFile(join(tmp, INDEX_FILE), index);
    site.timings.search_index = Math.round(performance.now() - t0);
    t0 = performance.now();
    const manifest = await writeManifest(
      tmp,
      {
        baseUrl: config.BASE_URL,
        lastModified: newestUpdated(site.dataset.reviews),
        reviewCount: site.dataset.reviews.length,
      },
      variants,
    );
    await writeStaticHostFiles(tmp, manifest);
    site.timings.manifest_and_compression = Math.round(performance.now() - t0);
    Object.assign(site.timings, { compressed_from_cache: variants.hits, compressed: variants.misses });
    // Two renames: the old build stays whole until the new one is complete. The sidecar serves from memory,
    // so the instant between the renames is never visible to a client.
    await rename(dist, old).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== "ENOENT") throw new OutputFolderError(`Cannot replace DIST_DIR (${dist}): ${e.code}.`);
    });
    if (config.BUILD_TEST_FAULT === "kill-between-renames") process.kill(process.pid, "SIGKILL");
    await rename(tmp, dist);
    // The new build is live from here on: failing to delete the old one is worth a warning, not a failed build.
    await rm(old, { recursive: true, force: true }).catch((e: NodeJS.ErrnoException) =>
      notices.push(`the new build is live, but the previous one could not be removed from ${old}: ${e.code}`),
    );
    await variants.prune().catch(() => undefined);
    return { manifest, timings: site.timings, warnings: [...notices, ...site.warnings] };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
