// What Astro makes (README "Incremental builds"): the server bundle (`_server/`) and the client files (public/,
// assets), which depend on the code only, never on the content. Kept in BUILD_CACHE_DIR under a fingerprint of
// every input Astro bundles, so a build whose inputs did not change (only the content did) reuses it and never
// starts Astro or Vite. The pages and data files are made by the build itself from either bundle.
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { z } from "zod";
import { sha256Hex } from "../domain/hash.ts";
import { alive } from "./output-folder.ts";

/** Bump when what is kept, or how the build uses it, changes: every kept bundle is then bundled again. */
const BUNDLE_FORMAT = 1;
const BUNDLE_FOLDER = "astro-bundle";
const RECORD_FILE = "bundle.json";
/** Astro's output inside the bundle folder (its `outDir`). */
const OUT = "out";

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
  baseUrl: string;
}

async function filesUnder(root: string, folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join("/"));
}

/**
 * The inputs' fingerprint. Besides the files: the bundle embeds the project's path and `site` (BASE_URL), and
 * Vite's output can change with Node (its built-ins, its version).
 */
export async function bundleFingerprint({ root, baseUrl }: BundleInputs): Promise<string> {
  const files = (await Promise.all(INPUT_FOLDERS.map((f) => filesUnder(root, f)))).flat();
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ format: BUNDLE_FORMAT, node: process.version, root, baseUrl }));
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
  const folder = join(cacheDir, BUNDLE_FOLDER);
  const text = await readFile(join(folder, RECORD_FILE), "utf8").catch(() => undefined);
  if (text === undefined) return { reason: `no bundle kept in ${folder}` };
  let record: z.infer<typeof RecordSchema>;
  try {
    record = RecordSchema.parse(JSON.parse(text));
  } catch {
    return { reason: `the bundle record ${join(folder, RECORD_FILE)} is unreadable` };
  }
  if (record.fingerprint !== fingerprint) return { reason: "the code, configuration or dependencies changed" };
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
  return { dir };
}

/** Runs Astro's build into a folder of its own beside the kept bundle and keeps it; returns its output folder. */
export async function bundleWithAstro(
  cacheDir: string,
  fingerprint: string,
  build: (outDir: string) => Promise<unknown>,
): Promise<string> {
  await removeStaleStaging(cacheDir);
  const folder = join(cacheDir, BUNDLE_FOLDER);
  const staging = `${folder}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(join(staging, OUT), { recursive: true });
  await build(join(staging, OUT));
  const files: Record<string, string> = {};
  for (const file of (await filesUnder(join(staging, OUT), ".")).sort()) {
    files[file] = sha256Hex(await readFile(join(staging, OUT, file)));
  }
  await writeFile(join(staging, RECORD_FILE), JSON.stringify({ fingerprint, files }));
  await rm(folder, { recursive: true, force: true });
  await rename(staging, folder);
  return join(folder, OUT);
}

/** Staging folders of builds that were killed while Astro ran. */
async function removeStaleStaging(cacheDir: string): Promise<void> {
  const pattern = new RegExp(`^${BUNDLE_FOLDER}\\.tmp-(\\d+)$`);
  for (const name of await readdir(cacheDir).catch(() => [] as string[])) {
    const m = pattern.exec(name);
    if (m && !alive(Number(m[1]))) await rm(join(cacheDir, name), { recursive: true, force: true });
  }
}
