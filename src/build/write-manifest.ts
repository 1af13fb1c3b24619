// Hashes and precompresses every file of a finished Astro build and writes the build manifest.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { sha256Hex } from "../domain/hash.ts";
import { isCompressible, mediaTypeOf } from "../domain/media-types.ts";
import { type BuildManifest, MANIFEST_FILE, type ManifestEntry } from "../domain/schemas/manifest.ts";

const br = promisify(brotliCompress);
const gz = promisify(gzip);

/** Brotli 11 costs seconds per megabyte: the best ratio for small files, a fast level for the big datasets. */
function brotliQuality(size: number): number {
  if (size <= 1 << 20) return 11;
  if (size <= 8 << 20) return 7;
  return 5;
}

/** The on-demand pages' server bundle (astro.config.mjs): loaded by the sidecar, never served as a file. */
export const SERVER_BUNDLE_DIR = "_server";

function urlPathOf(file: string): string {
  if (file === "index.html") return "/";
  return `/${file}`;
}

export async function writeManifest(
  outDir: string,
  info: { baseUrl: string; lastModified: string | undefined; reviewCount: number },
): Promise<BuildManifest> {
  const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && !/\.(gz|br)$/.test(e.name) && e.name !== MANIFEST_FILE)
    .map((e) => relative(outDir, join(e.parentPath, e.name)).split(sep).join("/"))
    .filter((file) => !file.startsWith(`${SERVER_BUNDLE_DIR}/`))
    .sort();
  const manifestFiles: Record<string, ManifestEntry> = {};
  for (const file of files) {
    const bytes = await readFile(join(outDir, file));
    const urlPath = urlPathOf(file);
    const type = mediaTypeOf(urlPath, file);
    const entry: ManifestEntry = { file, type, sha256: sha256Hex(bytes), size: bytes.length, encodings: {} };
    if (isCompressible(type) && bytes.length >= 256) {
      // Both at once: zlib runs them on libuv's thread pool, one core each.
      const [brBytes, gzBytes] = await Promise.all([
        br(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality(bytes.length) } }),
        gz(bytes, { level: 9 }),
      ]);
      const variants = [
        ["br", brBytes],
        ["gzip", gzBytes],
      ] as const;
      for (const [name, data] of variants) {
        const variantFile = `${file}.${name === "gzip" ? "gz" : "br"}`;
        await writeFile(join(outDir, variantFile), data);
        entry.encodings[name] = { file: variantFile, sha256: sha256Hex(data), size: data.length };
      }
    }
    manifestFiles[urlPath] = entry;
  }
  const manifest: BuildManifest = {
    manifest_version: 1,
    base_url: info.baseUrl,
    build_id: sha256Hex(
      Object.values(manifestFiles)
        .map((f) => `${f.file}:${f.sha256}`)
        .join("\n"),
    ).slice(0, 32),
    last_modified: info.lastModified ?? null,
    review_count: info.reviewCount,
    files: manifestFiles,
  };
  await writeFile(join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
