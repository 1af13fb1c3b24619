// Reads CONTENT_DIR into raw files; validation is the domain core's job.
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { ContentError } from "../domain/content-errors.ts";
import type { RawFile } from "../domain/validate-content.ts";

const READ_BATCH = 256;

async function listJson(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".json"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

export interface RawContent {
  business: RawFile;
  reviews: RawFile[];
  editorial?: RawFile;
}

export async function readContent(contentDir: string): Promise<RawContent> {
  const rel = (p: string) => relative(contentDir, p).split(sep).join("/");
  const read = async (p: string): Promise<RawFile> => ({ path: rel(p), text: await readFile(p, "utf8") });
  let business: RawFile;
  try {
    business = await read(join(contentDir, "business.json"));
  } catch {
    throw new ContentError([
      { file: "business.json", field: "", reason: `missing: ${contentDir} needs a business.json` },
    ]);
  }
  let reviewPaths: string[] = [];
  try {
    reviewPaths = await listJson(join(contentDir, "reviews"));
  } catch {
    // No reviews folder: a business with no reviews yet.
  }
  // In batches: one Promise.all over 100k files runs out of file descriptors (EMFILE).
  const reviews: RawFile[] = [];
  for (let i = 0; i < reviewPaths.length; i += READ_BATCH) {
    reviews.push(...(await Promise.all(reviewPaths.slice(i, i + READ_BATCH).map(read))));
  }
  let editorial: RawFile | undefined;
  try {
    editorial = await read(join(contentDir, "editorial.md"));
  } catch {
    editorial = undefined;
  }
  return { business, reviews, editorial };
}
