// The search index next to reviews.json, encoded on this thread before the manifest hashes both (a tenth of a
// second at 10,000 reviews: a worker thread, with the reviews packed and copied to it, did not pay there).
import type { ReviewsDataset } from "../domain/schemas/published.ts";
import { encodeReviewIndex } from "../domain/search/index-writer.ts";

/**
 * The index for `datasetJson` (JSON.stringify of `dataset`), encoded when the returned function is called.
 * `reviewOffsets`: serialiseDataset's, when it made these bytes (else each review is found and checked).
 * Bytes that are not the dataset's JSON reject the returned promise.
 */
export function startIndexing(
  dataset: ReviewsDataset,
  datasetJson: Uint8Array,
  reviewOffsets?: Uint32Array,
): () => Promise<Uint8Array> {
  return async () => encodeReviewIndex(dataset, datasetJson, reviewOffsets);
}
