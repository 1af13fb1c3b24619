// Writes the search index next to the reviews.json Astro wrote, before the manifest hashes both.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ReviewsDataset } from "../domain/schemas/published.ts";
import { INDEX_FILE } from "../domain/search/index-format.ts";
import { encodeReviewIndex } from "../domain/search/index-writer.ts";

export async function writeSearchIndex(outDir: string, dataset: ReviewsDataset): Promise<void> {
  const reviewsJson = await readFile(join(outDir, "reviews.json"));
  await writeFile(join(outDir, INDEX_FILE), encodeReviewIndex(dataset, reviewsJson));
}
