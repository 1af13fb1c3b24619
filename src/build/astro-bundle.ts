// What Astro makes (README "Incremental builds"): the server bundle (`_server/`) and the client files (public/,
// assets), which depend on the code only, never on the content. Kept in BUILD_CACHE_DIR under a fingerprint of
// every input Astro bundles, so a build whose inputs did not change (only the content did) reuses it and never
// starts Astro or Vite. The pages and data files are made by the build itself from either bundle.
// The bundle is the same for every BASE_URL: Astro is given no `site`, and the pages take the origin from the
// build's data (`locals.site`), so a build or publish for another origin reuses it.
// Each fingerprint has a folder of its own (`astro-bundle/<key>/`), and the few most recently used are kept: a
// build from another project folder or version of the code never replaces the bundle a running server's builds
// use, and concurrent builds on one cache never delete a bundle another is reading.
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { z } from "zod";
import { sha256Hex } from "../domain/hash.ts";
import { alive } from "./output-folder.ts";

/** Bump when what is kept, or how the build uses it, changes: every kept bundle is then bundled again. */
const BUNDLE_FORMAT = 2;
const BUNDLE_FOLDER = "astro-bundle";
const RECORD_FILE = "bundle.json";
/** Astro's output inside the bundle folder (its `outDir`). */
const OUT = "out";
/** Bundles kept besides the one just used (other project folders, versions of the code). */
const KEEP_OTHERS = 3;
/** A bundle used this recently is never evicted: a build may still be copying or rendering from it. */
const IN_USE_MS = 60 * 60_000;

/** A fingerprint's folder under BUILD_CACHE_DIR. */
const keyedFolder = (cacheDir: string, fingerprint: string) => join(cacheDir, BUNDLE_FOLDER, fingerprint.slice(0, 16));

/**
 * What the bundle is made from: the source folders its modules come from (pages, components, domain, build code,
 * and the sidecar modules src/middleware.ts imports; the whole folders, so that a new file counts too), Astro's
 * and TypeScript's configuration, the dependencies' versions (the lock file and npm's record of what is installed),
 * and `.env` files (Vite reads them).
 */
const INPUT_FOLDERS = ["src", "sidecar", "public"];
const INPUT_FILES = [
  "astro.config.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "node_modules/.package-lock.json",
  ".env",
  ".env.production",
];

const RecordSchema = z.object({
  fingerprint: z.string(),
  /** Every file of Astro's output by its path inside `out/`, with its sha256: a bundle that changed is not used. */
  files: z.record(z.string(), z.string()),
});

export interface BundleInputs {
  root: string;
}

async function filesUnder(root: string, folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join("/"));
}

/**
 * The inputs' fingerprint. Besides the files: the bundle embeds the project's path, and Vite's output can change
 * with Node (its built-ins, its version).
 */
export async function bundleFingerprint({ root }: BundleInputs): Promise<string> {
  const files = (await Promise.all(INPUT_FOLDERS.map((f) => filesUnder(root, f)))).flat();
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ format: BUNDLE_FORMAT, node: process.version, root }));
  for (const file of [...files, ...INPUT_FILES].sort()) {
    const bytes = await readFile(join(root, file)).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return undefined;
      throw e;
    });
    hash.update(`\n${file}\0${bytes === undefined ? "-" : sha256Hex(bytes)}`);
  }
  return hash.digest("hex");
}

export type KeptBundle = { dir: string } | { dir?: undefined; reason: string };

/** The kept bundle's output folder if it was made from these inputs and is whole, else why not. */
export async function keptBundle(cacheDir: string | undefined, fingerprint: string): Promise<KeptBundle> {
  if (cacheDir === undefined) return { reason: "no BUILD_CACHE_DIR" };
  const folder = keyedFolder(cacheDir, fingerprint);
  const text = await readFile(join(folder, RECORD_FILE), "utf8").catch(() => undefined);
  if (text === undefined) return { reason: `no bundle kept for this code (${folder})` };
  let record: z.infer<typeof RecordSchema>;
  try {
    record = RecordSchema.parse(JSON.parse(text));
  } catch {
    return { reason: `the bundle record ${join(folder, RECORD_FILE)} is unreadable` };
  }
  if (record.fingerprint !== fingerprint)
    return { reason: `the bundle record ${join(folder, RECORD_FILE)} is foreign` };
  const dir = join(folder, OUT);
  const present = await filesUnder(dir, ".");
  const listed = Object.keys(record.files);
  if (present.length !== listed.length) return { reason: `the kept bundle in ${folder} is incomplete` };
  for (const file of listed) {
    const bytes = await readFile(join(dir, file)).catch(() => undefined);
    if (bytes === undefined || sha256Hex(bytes) !== record.files[file]) {
      return { reason: `the kept bundle in ${folder} is damaged (${file})` };
    }
  }
  // Its record's time says when it was last used, for eviction.
  const now = new Date();
  await utimes(join(folder, RECORD_FILE), now, now).catch(() => undefined);
  return { dir };
}

/** Runs Astro's build into a folder of its own beside the kept bundles and keeps it; returns its output folder. */
export async function bundleWithAstro(
  cacheDir: string,
  fingerprint: string,
  build: (outDir: string) => Promise<unknown>,
): Promise<string> {
  const folder = keyedFolder(cacheDir, fingerprint);
  await removeStaleStaging(dirname(folder));
  const staging = `${folder}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(join(staging, OUT), { recursive: true });
  await build(join(staging, OUT));
  const files: Record<string, string> = {};
  for (const file of (await filesUnder(join(staging, OUT), ".")).sort()) {
    files[file] = sha256Hex(await readFile(join(staging, OUT, file)));
  }
  await writeFile(join(staging, RECORD_FILE), JSON.stringify({ fingerprint, files }));
  // Another build of the same code may have kept its bundle meanwhile: it is as good, and may be in use.
  const kept = await keptBundle(cacheDir, fingerprint);
  if (kept.dir) {
    await rm(staging, { recursive: true, force: true });
    return kept.dir;
  }
  await rm(folder, { recursive: true, force: true });
  await rename(staging, folder);
  await evict(dirname(folder), folder);
  return join(folder, OUT);
}

/** Removes the least recently used bundles beyond KEEP_OTHERS, and what an older layout of the cache left. */
async function evict(bundles: string, keep: string): Promise<void> {
  await rm(join(bundles, OUT), { recursive: true, force: true });
  await rm(join(bundles, RECORD_FILE), { force: true });
  const others: Array<{ path: string; used: number }> = [];
  for (const name of await readdir(bundles).catch(() => [] as string[])) {
    const path = join(bundles, name);
    if (path === keep || !/^[0-9a-f]{16}$/.test(name)) continue;
    const used = await stat(join(path, RECORD_FILE)).then(
      (s) => s.mtimeMs,
      () => 0,
    );
    others.push({ path, used });
  }
  others.sort((a, b) => b.used - a.used);
  for (const { path, used } of others.slice(KEEP_OTHERS)) {
    if (Date.now() - used > IN_USE_MS) await rm(path, { recursive: true, force: true });
  }
}

/** Staging folders of builds that were killed while Astro ran. */
async function removeStaleStaging(bundles: string): Promise<void> {
  const pattern = /^[0-9a-f]{16}\.tmp-(\d+)$/;
  for (const name of await readdir(bundles).catch(() => [] as string[])) {
    const m = pattern.exec(name);
    if (m && !alive(Number(m[1]))) await rm(join(bundles, name), { recursive: true, force: true });
  }
}
