// The search index next to reviews.json, before the manifest hashes both: encoded on this thread,
// or for many reviews in a worker thread started before Astro runs (the second core is otherwise idle then).
import type { ReviewsDataset } from "../domain/schemas/published.ts";
import { encodeReviewIndex } from "../domain/search/index-writer.ts";
import { runWorker } from "./run-worker.ts";

/** What the index worker is given. */
export interface IndexJob {
  json: Uint8Array;
  reviewOffsets: Uint32Array | undefined;
}

/**
 * From this many reviews the index is encoded in a worker thread. Below, parsing the dataset again in the
 * worker costs about what the overlap saves (the index takes a tenth of a second at 10,000 reviews).
 */
const MIN_FOR_WORKER = 20_000;

/**
 * The index for `datasetJson` (JSON.stringify of `dataset`), in a worker thread when the dataset is large.
 * `reviewOffsets`: serialiseDataset's, when it made these bytes (else each review is found and checked).
 */
export function startIndexing(
  dataset: ReviewsDataset,
  datasetJson: Uint8Array,
  minForWorker = MIN_FOR_WORKER,
  reviewOffsets?: Uint32Array,
): () => Promise<Uint8Array> {
  if (dataset.reviews.length < minForWorker) return async () => encodeReviewIndex(dataset, datasetJson, reviewOffsets);
  const job: IndexJob = { json: datasetJson, reviewOffsets };
  const pending = runWorker<Uint8Array>(
    new URL("./search-index-worker.ts", import.meta.url),
    job,
    "the search index worker",
  );
  pending.catch(() => {}); // reported to whoever awaits it
  return () => pending;
}
