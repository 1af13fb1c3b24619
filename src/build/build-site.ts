// content/ -> validated content -> site data (while Astro bundles, unless the kept bundle was made from the same
// code) -> data files, the bundle's files and the pages it renders -> search index and manifest -> swapped into
// DIST_DIR.
import { cp, mkdir, mkdtemp, readdir, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../config.ts";
import { ContentError } from "../domain/content-errors.ts";
import { DATA_PATHS } from "../domain/feeds/feed-items.ts";
import { sha256Hex } from "../domain/hash.ts";
import type { BuildManifest } from "../domain/schemas/manifest.ts";
import { INDEX_FILE } from "../domain/search/index-format.ts";
import { bundleFingerprint, bundleWithAstro, keptBundle } from "./astro-bundle.ts";
import { CompressedVariants } from "./compressed-variants.ts";
import { contentRevision } from "./content-revision.ts";
import { outputPaths, recoverOutput } from "./output-folder.ts";
import { linkWarning, misplacedWarning, type RawContent } from "./read-content.ts";
import { loadBundle, renderPages } from "./render-pages.ts";
import { checkContent, completeSite } from "./site-data.ts";
import { buildPageData, siteFiles } from "./site-files.ts";
import { writeStaticHostFiles } from "./static-host-files.ts";
import { widgetScripts } from "./widget-script.ts";
import { writeManifest } from "./write-manifest.ts";
import { startIndexing } from "./write-search-index.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface BuildResult {
  manifest: BuildManifest;
  timings: Record<string, number>;
  /** What the operator should read: recovered folders, an old folder kept, contact details found, misplaced files. */
  warnings: string[];
  /** Whether the kept Astro bundle was used (only the content changed) rather than Astro run. */
  dataOnly: boolean;
  /** One line for the build's output: which of the two it was, and why Astro ran. */
  astro: string;
}

/** The build could not write its output; the previous output (if any) is untouched. */
export class OutputFolderError extends Error {}

type BuildConfig = Pick<Config, "CONTENT_DIR" | "BASE_URL" | "DIST_DIR"> &
  Partial<Pick<Config, "BUILD_TEST_FAULT">> &
  Partial<Pick<Config, "BUILD_CACHE_DIR" | "PII_POLICY" | "AUTHOR_NAME_POLICY" | "AUTHOR_NAME_SCOPE">> & {
    /** Files the build would ignore (misplaced, symbolic links) fail it instead of being warned about. */
    strict?: boolean;
  };

export async function buildSite(config: BuildConfig): Promise<BuildResult> {
  const notices = await recoverOutput(config.DIST_DIR);
  // Which bundle the pages come from is worked out (hashing the code) while the content is read: a kept one
  // starts loading as soon as it is known.
  let t0 = performance.now();
  const bundleChecked = (async () => {
    const fingerprint = await bundleFingerprint({ root: ROOT });
    const kept = await keptBundle(config.BUILD_CACHE_DIR, fingerprint);
    if (kept.dir) loadBundle(kept.dir).catch(() => undefined); // awaited (and its failure reported) by renderPages
    return { fingerprint, kept, bundleCheck: Math.round(performance.now() - t0) };
  })();
  bundleChecked.catch(() => undefined); // awaited below, once the content passed
  const revision = contentRevision(config.CONTENT_DIR); // never rejects
  const checked = await checkContent(config);
  if (config.strict) refuseIgnoredFiles(checked.raw);
  const { fingerprint, kept, bundleCheck } = await bundleChecked;
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
  // Without BUILD_CACHE_DIR the bundle is made in a folder of this build's own and never kept.
  const ownCache = config.BUILD_CACHE_DIR === undefined ? await mkdtemp(join(tmpdir(), "reviews-bundle-")) : undefined;
  try {
    // Astro bundles the pages and the server code (2-4 s, Vite) only when an input it bundles changed; it needs no
    // content, so it runs while the reviews are analysed. Its bundling calls back into this thread for every module.
    // Otherwise the kept bundle is used and Vite never starts. A failure on either side fails the build once both
    // have stopped.
    // bundle_check: from the build's start until the kept bundle was known (while the content was read).
    const timings: Record<string, number> = { bundle_check: bundleCheck };
    const astroStart = performance.now();
    const bundle: Promise<string> = kept.dir
      ? Promise.resolve(kept.dir)
      : bundleWithAstro(config.BUILD_CACHE_DIR ?? (ownCache as string), fingerprint, (outDir) =>
          // No `site`: the pages take the origin from the build's data, so one bundle serves every BASE_URL.
          import("astro").then(({ build }) => build({ root: ROOT, outDir, logLevel: "warn" })),
        );
    bundle.catch(() => undefined); // awaited below: not an unhandled rejection while the data is computed
    // reviews.json's compression (libuv's thread pool) and, for many reviews, the search index (a worker thread)
    // start as soon as its bytes are made, and run while the insights are added up, the other files written and
    // the pages rendered.
    const variants = new CompressedVariants(config.BUILD_CACHE_DIR);
    // The widget's script depends on the code only; esbuild bundles it while the data is computed.
    const scripts = widgetScripts();
    scripts.catch(() => undefined); // awaited with the data files
    let indexed: (() => Promise<Uint8Array>) | undefined;
    // reviews.json's and the index's bytes and hashes, made once: the manifest takes them from here rather than
    // reading the files back. sha256 on this thread: 50 ms for the 75 MB of reviews.json at 100,000 reviews, where
    // WebCrypto's digest (libuv's thread pool) first copied them on this thread in 200-300 ms.
    const hashed = new Map<string, { bytes: Buffer; sha256: string }>();
    const site = await completeSite(checked, (dataset, made) => {
      const bytes = Buffer.from(made.json.buffer, made.json.byteOffset, made.json.length);
      const sha256 = sha256Hex(bytes);
      hashed.set(DATA_PATHS.dataset.slice(1), { bytes, sha256 });
      void variants.of(bytes, sha256);
      indexed = startIndexing(dataset, bytes, made.reviewOffsets);
    }).catch(async (e: unknown) => {
      await bundle.catch(() => undefined);
      throw e;
    });
    Object.assign(site.timings, timings);
    t0 = performance.now();
    const page = buildPageData(site);
    for (const [path, body] of [...siteFiles(site, page), ...(await scripts)]) {
      await mkdir(dirname(join(tmp, path)), { recursive: true });
      await writeFile(join(tmp, path), body);
    }
    site.timings.data_files = Math.round(performance.now() - t0);
    t0 = performance.now();
    const bundleDir = await bundle;
    // astro: what the build waited for Astro once the data was ready; astro_total: from Astro's start (0: reused).
    site.timings.astro = Math.round(performance.now() - t0);
    site.timings.astro_total = kept.dir ? 0 : Math.round(performance.now() - astroStart);
    t0 = performance.now();
    // The bundle holds no file the build writes (every page is rendered on demand): a clash is an error.
    for (const entry of await readdir(bundleDir)) {
      await cp(join(bundleDir, entry), join(tmp, entry), { recursive: true, errorOnExist: true, force: false });
    }
    for (const [file, body] of await renderPages(bundleDir, page)) await writeFile(join(tmp, file), body);
    site.timings.pages = Math.round(performance.now() - t0);
    t0 = performance.now();
    const encoded = await (indexed as () => Promise<Uint8Array>)();
    const index = Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength); // a view: 36 MB not copied
    await writeFile(join(tmp, INDEX_FILE), index);
    hashed.set(INDEX_FILE, { bytes: index, sha256: sha256Hex(index) });
    site.timings.search_index = Math.round(performance.now() - t0);
    t0 = performance.now();
    const manifest = await writeManifest(
      tmp,
      {
        baseUrl: config.BASE_URL,
        // newestUpdated of the reviews, which the insights worked out already.
        lastModified: site.insights.generated_from.last_updated ?? undefined,
        reviewCount: site.dataset.reviews.length,
        contentRevision: await revision,
      },
      variants,
      hashed,
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
    const astro =
      kept.dir === undefined
        ? `astro: bundled (${kept.reason})`
        : "astro: skipped, the kept bundle was made from the same code (a data-only build)";
    return { manifest, timings: site.timings, warnings: [...notices, ...site.warnings], dataOnly: !!kept.dir, astro };
  } finally {
    await rm(tmp, { recursive: true, force: true });
    if (ownCache) await rm(ownCache, { recursive: true, force: true });
  }
}

/** With --strict, a file the build would leave unpublished is an error, before anything is written. */
function refuseIgnoredFiles(raw: Pick<RawContent, "misplaced" | "links">): void {
  const ignored = [
    ...raw.misplaced.map((file) => ({ file, warning: misplacedWarning(file) })),
    ...raw.links.map((file) => ({ file, warning: linkWarning(file) })),
  ];
  if (!ignored.length) return;
  throw new ContentError(
    ignored.map(({ file, warning }) => ({
      file,
      field: "",
      reason: `not published: ${warning.slice(warning.indexOf(" was ignored: ") + " was ignored: ".length)} (an error with --strict)`,
    })),
  );
}
