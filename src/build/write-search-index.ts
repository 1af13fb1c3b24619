// The search index next to the reviews.json Astro wrote, before the manifest hashes both: encoded on this thread,
// or for many reviews in a worker thread started before Astro runs (the second core is otherwise idle then).
import { Worker } from "node:worker_threads";
import type { ReviewsDataset } from "../domain/schemas/published.ts";
import { encodeReviewIndex } from "../domain/search/index-writer.ts";

/** The published dataset (src/pages/reviews.json.ts), which the index points into. */
export const DATASET_FILE = "reviews.json";

/**
 * From this many reviews the index is encoded in a worker thread. Below, parsing the dataset again in the
 * worker costs about what the overlap saves (the index takes a tenth of a second at 10,000 reviews).
 */
const MIN_FOR_WORKER = 20_000;

/** The index for `datasetJson` (JSON.stringify of `dataset`), in a worker thread when the dataset is large. */
export function startIndexing(
  dataset: ReviewsDataset,
  datasetJson: Uint8Array,
  minForWorker = MIN_FOR_WORKER,
): () => Promise<Uint8Array> {
  if (dataset.reviews.length < minForWorker) return async () => encodeReviewIndex(dataset, datasetJson);
  const pending = new Promise<Uint8Array>((resolve, reject) => {
    const worker = new Worker(new URL("./search-index-worker.ts", import.meta.url), { workerData: datasetJson });
    worker.once("message", (index: Uint8Array) => {
      resolve(index);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the search index worker exited with code ${code}`));
    });
  });
  pending.catch(() => {}); // reported to whoever awaits it
  return () => pending;
}
