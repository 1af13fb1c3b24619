// content/ -> validated site data -> Astro renders into a temporary folder -> manifest -> swapped into DIST_DIR.
import { rename, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../config.ts";
import { newestUpdated } from "../domain/order.ts";
import type { BuildManifest } from "../domain/schemas/manifest.ts";
import { computeSite, handOver } from "./site-data.ts";
import { writeManifest } from "./write-manifest.ts";
import { writeSearchIndex } from "./write-search-index.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface BuildResult {
  manifest: BuildManifest;
  timings: Record<string, number>;
}

export async function buildSite(
  config: Pick<Config, "CONTENT_DIR" | "BASE_URL" | "DIST_DIR"> & Partial<Pick<Config, "BUILD_CACHE_DIR">>,
): Promise<BuildResult> {
  const site = await computeSite(config);
  handOver(site);
  const dist = resolve(config.DIST_DIR);
  const tmp = `${dist}.tmp-${process.pid}`;
  const old = `${dist}.old-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  try {
    const { build } = await import("astro");
    let t0 = performance.now();
    await build({ root: ROOT, outDir: tmp, site: config.BASE_URL, logLevel: "warn" });
    site.timings.astro = Math.round(performance.now() - t0);
    t0 = performance.now();
    await writeSearchIndex(tmp, site.dataset);
    site.timings.search_index = Math.round(performance.now() - t0);
    t0 = performance.now();
    const manifest = await writeManifest(tmp, {
      baseUrl: config.BASE_URL,
      lastModified: newestUpdated(site.dataset.reviews),
      reviewCount: site.dataset.reviews.length,
    });
    site.timings.manifest_and_compression = Math.round(performance.now() - t0);
    // Two renames: the old build stays whole until the new one is complete. The sidecar serves from memory,
    // so the instant between the renames is never visible to a client.
    await rename(dist, old).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== "ENOENT") throw e;
    });
    await rename(tmp, dist);
    await rm(old, { recursive: true, force: true });
    return { manifest, timings: site.timings };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
