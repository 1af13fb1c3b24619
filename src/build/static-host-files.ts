// What static hosts need besides the files: the `_headers` rules, and every file's mtime set from its bytes
// (src/domain/content-mtime.ts) so that mtime-based ETags and Last-Modified survive a rebuild of the same bytes.
// The manifest keeps its real mtime: `npm start` compares it with CONTENT_DIR to decide whether to rebuild.
import { utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { contentMtime } from "../domain/content-mtime.ts";
import { sha256Hex } from "../domain/hash.ts";
import type { BuildManifest } from "../domain/schemas/manifest.ts";
import { HEADERS_FILE } from "../domain/static-headers.ts";
import { renderHeadersFile } from "./headers-file.ts";

export async function writeStaticHostFiles(outDir: string, manifest: BuildManifest): Promise<void> {
  const headers = renderHeadersFile(manifest);
  await writeFile(join(outDir, HEADERS_FILE), headers);
  const stamps: Array<[string, string]> = [[HEADERS_FILE, sha256Hex(headers)]];
  for (const entry of Object.values(manifest.files)) {
    stamps.push([entry.file, entry.sha256]);
    for (const variant of [entry.encodings.br, entry.encodings.gzip])
      if (variant) stamps.push([variant.file, variant.sha256]);
  }
  for (const [file, sha256] of stamps) {
    const time = contentMtime(sha256);
    await utimes(join(outDir, file), time, time);
  }
}
