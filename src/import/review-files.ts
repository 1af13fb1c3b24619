// The importer's file side: the review files already in CONTENT_DIR, and atomic writes.
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ExistingReview } from "../domain/import/plan-import.ts";
import type { RawFile } from "../domain/validate-content.ts";

/** Existing review files by id (the file name without .json). */
export function indexReviews(files: readonly RawFile[]): Map<string, ExistingReview> {
  const byId = new Map<string, ExistingReview>();
  for (const f of files) {
    let json: unknown;
    try {
      json = JSON.parse(f.text);
    } catch {
      json = undefined;
    }
    byId.set(f.path.replace(/^.*\//, "").replace(/\.json$/, ""), { file: f.path, json });
  }
  return byId;
}

/**
 * Writes through a temporary file in the same folder and a rename, so a reader (or an interrupted import)
 * sees the old file or the new one, never half of one. The temporary name does not end in .json.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${randomBytes(6).toString("hex")}.import-tmp`);
  try {
    await writeFile(tmp, text, { flush: true });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
