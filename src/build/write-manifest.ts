// Hashes and precompresses every file of a finished Astro build and writes the build manifest.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { sha256Hex } from "../domain/hash.ts";
import { isCompressible, mediaTypeOf } from "../domain/media-types.ts";
import { type BuildManifest, MANIFEST_FILE, type ManifestEntry } from "../domain/schemas/manifest.ts";
import type { CompressedVariants } from "./compressed-variants.ts";

/** The on-demand pages' server bundle (astro.config.mjs): loaded by the sidecar, never served as a file. */
export const SERVER_BUNDLE_DIR = "_server";

function urlPathOf(file: string): string {
  if (file === "index.html") return "/";
  return `/${file}`;
}

export async function writeManifest(
  outDir: string,
  info: { baseUrl: string; lastModified: string | undefined; reviewCount: number; contentRevision?: string | null },
  variants: CompressedVariants,
  /** Files whose bytes the build wrote from memory and already hashed (reviews.json), by path: not read back. */
  hashed: ReadonlyMap<string, { bytes: Buffer; sha256: string }> = new Map(),
): Promise<BuildManifest> {
  const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && !/\.(gz|br)$/.test(e.name) && e.name !== MANIFEST_FILE)
    .map((e) => relative(outDir, join(e.parentPath, e.name)).split(sep).join("/"))
    .filter((file) => !file.startsWith(`${SERVER_BUNDLE_DIR}/`))
    .sort();
  const manifestFiles: Record<string, ManifestEntry> = {};
  for (const file of files) {
    const known = hashed.get(file);
    const bytes = known?.bytes ?? (await readFile(join(outDir, file)));
    const urlPath = urlPathOf(file);
    const type = mediaTypeOf(urlPath, file);
    const sha256 = known?.sha256 ?? sha256Hex(bytes);
    const entry: ManifestEntry = { file, type, sha256, size: bytes.length, encodings: {} };
    if (isCompressible(type) && bytes.length >= 256) {
      const compressed = await variants.of(bytes, entry.sha256);
      for (const name of ["br", "gzip"] as const) {
        const data = compressed[name];
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
    content_revision: info.contentRevision ?? null,
    files: manifestFiles,
  };
  await writeFile(join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
