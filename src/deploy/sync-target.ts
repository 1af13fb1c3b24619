// Copies a build into a static host's folder (an nginx root, a CDN's upload folder) with node:fs only, in an order
// that never leaves a published file pointing at a missing one: hashed assets, then the other non-HTML files, then
// the pages that reference them, then `_headers`, and the manifest last. Every file is written under a temporary
// name and renamed into place, so no reader sees half a file; unchanged files are not touched (their mtime, hence
// nginx's ETag, stays). Files of older builds are deleted after the manifest, except the previous build's hashed
// assets, which pages still cached in browsers and CDNs may ask for.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, readdir, rename, rm, rmdir, stat, utimes } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { type BuildManifest, MANIFEST_FILE } from "../domain/schemas/manifest.ts";
import { HEADERS_FILE, IMMUTABLE_PREFIX } from "../domain/static-headers.ts";
import { readManifest } from "./read-manifest.ts";

const TMP_MARK = ".rps-sync-";

export interface SyncReport {
  /** Relative paths, in the order they were written. */
  written: string[];
  unchanged: string[];
  deleted: string[];
}

function sha256Of(path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (d) => hash.update(d))
      .on("end", () => resolve(hash.digest("hex")))
      .on("error", () => resolve(undefined));
  });
}

/** The build's files in publishing order, each with its sha256 when the manifest knows it. */
function publishingOrder(manifest: BuildManifest): Array<{ file: string; sha256?: string }> {
  const rank = (urlPath: string, type: string) =>
    urlPath.startsWith(IMMUTABLE_PREFIX) ? 0 : type.startsWith("text/html") ? 2 : 1;
  const entries = Object.entries(manifest.files).sort(
    ([a, x], [b, y]) => rank(a, x.type) - rank(b, y.type) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const files: Array<{ file: string; sha256?: string }> = [];
  for (const [, e] of entries) {
    // The precompressed siblings first: a file is announced by its identity version.
    for (const v of [e.encodings.br, e.encodings.gzip]) if (v) files.push({ file: v.file, sha256: v.sha256 });
    files.push({ file: e.file, sha256: e.sha256 });
  }
  files.push({ file: HEADERS_FILE }, { file: MANIFEST_FILE });
  return files;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join("/"));
}

async function writeAtomically(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  const tmp = `${to}${TMP_MARK}${process.pid}`;
  await copyFile(from, tmp);
  const { atime, mtime } = await stat(from);
  await utimes(tmp, atime, mtime);
  await rename(tmp, to);
}

async function sameFile(from: string, to: string, sha256: string | undefined): Promise<boolean> {
  const [a, b] = await Promise.all([stat(from), stat(to).catch(() => undefined)]);
  if (!b || a.size !== b.size) return false;
  const [x, y] = await Promise.all([sha256 ?? sha256Of(from), sha256Of(to)]);
  if (x !== y) return false;
  if (a.mtimeMs !== b.mtimeMs) await utimes(to, a.atime, a.mtime);
  return true;
}

export async function syncToTarget(source: string, target: string): Promise<SyncReport> {
  const next = await readManifest(source);
  if (!next) throw new Error(`${source} holds no valid ${MANIFEST_FILE}: not a complete build`);
  const before = await readManifest(target);
  // The sync deletes what the build does not hold: never in a folder that this step did not fill.
  if (!before && (await listFiles(target)).length > 0) {
    throw new Error(
      `${target} holds files but no ${MANIFEST_FILE}, so it is not a folder that publish filled; choose an empty or new folder`,
    );
  }
  await mkdir(target, { recursive: true });
  const report: SyncReport = { written: [], unchanged: [], deleted: [] };
  const order = publishingOrder(next);
  for (const { file, sha256 } of order) {
    const from = join(source, file);
    const to = join(target, file);
    if (await sameFile(from, to, sha256)) report.unchanged.push(file);
    else {
      await writeAtomically(from, to);
      report.written.push(file);
    }
  }
  const keep = new Set(order.map((f) => f.file));
  for (const [urlPath, e] of Object.entries(before?.files ?? {})) {
    if (!urlPath.startsWith(IMMUTABLE_PREFIX)) continue;
    for (const f of [e.file, e.encodings.br?.file, e.encodings.gzip?.file]) if (f) keep.add(f);
  }
  for (const file of (await listFiles(target)).sort()) {
    if (keep.has(file)) continue;
    await rm(join(target, file), { force: true });
    report.deleted.push(file);
    await removeEmptyParents(target, dirname(join(target, file)));
  }
  return report;
}

async function removeEmptyParents(root: string, dir: string): Promise<void> {
  while (dir.startsWith(root) && dir !== root) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}
