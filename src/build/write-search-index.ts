// The search index next to reviews.json, before the manifest hashes both: encoded on this thread,
// or for many reviews in a worker thread started before Astro runs (the second core is otherwise idle then).
// The worker is sent what the index reads of each review, packed into one string and a few typed arrays (a
// structured clone of a flat string is a copy; of 100,000 objects, a walk), and reviews.json's layout as this
// thread found and checked it: neither the 70 MB of reviews.json nor parsing them again in the worker.
import type { ReviewsDataset } from "../domain/schemas/published.ts";
import {
  encodeReviewIndex,
  type IndexCatalog,
  type IndexedReview,
  indexCatalog,
  locateReviews,
  type ReviewsJsonLayout,
} from "../domain/search/index-writer.ts";
import { runWorker } from "./run-worker.ts";

/** What the index worker is given (search-index-worker.ts). */
export interface IndexJob {
  catalog: IndexCatalog;
  layout: ReviewsJsonLayout;
  reviews: PackedReviews;
}

/** IndexedReview[] as one string of id, date, updated, title and text of each review, and their lengths. */
export interface PackedReviews {
  strings: string;
  lengths: Uint32Array;
  /** 1 where the review has a title (an absent title and an empty one are told apart). */
  titled: Uint8Array;
  ratings: Uint8Array;
  /** JSON of [technicians, services] per review. */
  mentions: string;
}

const FIELDS = 5;

export function packReviews(reviews: readonly IndexedReview[]): PackedReviews {
  const n = reviews.length;
  const lengths = new Uint32Array(n * FIELDS);
  const titled = new Uint8Array(n);
  const ratings = new Uint8Array(n);
  const parts: string[] = new Array(n * FIELDS);
  for (let i = 0; i < n; i++) {
    const r = reviews[i];
    const fields = [r.id, r.date, r.updated, r.title ?? "", r.text];
    for (let f = 0; f < FIELDS; f++) {
      parts[i * FIELDS + f] = fields[f];
      lengths[i * FIELDS + f] = fields[f].length;
    }
    titled[i] = r.title === undefined ? 0 : 1;
    ratings[i] = r.rating;
  }
  const mentions = JSON.stringify(reviews.map((r) => [r.mentions.technicians, r.mentions.services]));
  return { strings: parts.join(""), lengths, titled, ratings, mentions };
}

export function unpackReviews(packed: PackedReviews): IndexedReview[] {
  const { strings, lengths, titled, ratings } = packed;
  const mentions = JSON.parse(packed.mentions) as [string[], string[]][];
  const out: IndexedReview[] = new Array(ratings.length);
  let at = 0;
  const next = (k: number) => {
    const s = strings.slice(at, at + lengths[k]);
    at += lengths[k];
    return s;
  };
  for (let i = 0; i < ratings.length; i++) {
    const [id, date, updated, title, text] = [0, 1, 2, 3, 4].map((f) => next(i * FIELDS + f));
    const [technicians, services] = mentions[i];
    out[i] = {
      id,
      date,
      updated,
      rating: ratings[i],
      ...(titled[i] ? { title } : {}),
      text,
      mentions: { technicians, services },
    };
  }
  return out;
}

/**
 * From this many reviews the index is encoded in a worker thread. Below, packing the reviews for the worker
 * costs about what the overlap saves (the index takes a tenth of a second at 10,000 reviews).
 */
const MIN_FOR_WORKER = 20_000;

/**
 * The index for `datasetJson` (JSON.stringify of `dataset`), in a worker thread when the dataset is large.
 * `reviewOffsets`: serialiseDataset's, when it made these bytes (else each review is found and checked).
 * Bytes that are not the dataset's JSON reject the returned promise.
 */
export function startIndexing(
  dataset: ReviewsDataset,
  datasetJson: Uint8Array,
  minForWorker = MIN_FOR_WORKER,
  reviewOffsets?: Uint32Array,
): () => Promise<Uint8Array> {
  if (dataset.reviews.length < minForWorker) return async () => encodeReviewIndex(dataset, datasetJson, reviewOffsets);
  let pending: Promise<Uint8Array>;
  try {
    const job: IndexJob = {
      catalog: indexCatalog(dataset.business),
      layout: locateReviews(dataset, datasetJson, reviewOffsets),
      reviews: packReviews(dataset.reviews),
    };
    pending = runWorker<Uint8Array>(
      new URL("./search-index-worker.ts", import.meta.url),
      job,
      "the search index worker",
    );
  } catch (e) {
    pending = Promise.reject(e);
  }
  pending.catch(() => {}); // reported to whoever awaits it
  return () => pending;
}
