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

/**
 * IndexedReview[] as one string of the id, date, updated, title and text of each review with their lengths, and
 * the technicians and services each mentions as positions in the catalog (the index keeps postings for those
 * alone, so a mention outside the catalog is left out here as the index writer would leave it out).
 */
export interface PackedReviews {
  strings: string;
  lengths: Uint32Array;
  /** 1 where the review has a title (an absent title and an empty one are told apart). */
  titled: Uint8Array;
  ratings: Uint8Array;
  technicians: Mentioned;
  services: Mentioned;
}

/** Per review, positions in a catalog list: review i's are `keys[starts[i] .. starts[i + 1])`. */
interface Mentioned {
  starts: Uint32Array;
  keys: Uint16Array;
}

const FIELDS = 5;

function mentioned(
  reviews: readonly IndexedReview[],
  catalog: string[],
  of: (r: IndexedReview) => string[],
): Mentioned {
  const pos = new Map(catalog.map((id, i) => [id, i]));
  const starts = new Uint32Array(reviews.length + 1);
  const keys: number[] = [];
  for (let i = 0; i < reviews.length; i++) {
    for (const id of of(reviews[i])) {
      const k = pos.get(id);
      if (k !== undefined) keys.push(k);
    }
    starts[i + 1] = keys.length;
  }
  return { starts, keys: Uint16Array.from(keys) };
}

export function packReviews(reviews: readonly IndexedReview[], catalog: IndexCatalog): PackedReviews {
  if (Math.max(catalog.technicians.length, catalog.services.length) > 0xffff) throw new Error("catalog too large");
  const n = reviews.length;
  const lengths = new Uint32Array(n * FIELDS);
  const titled = new Uint8Array(n);
  const ratings = new Uint8Array(n);
  const parts: string[] = new Array(n * FIELDS);
  for (let i = 0, k = 0; i < n; i++) {
    const r = reviews[i];
    const title = r.title ?? "";
    parts[k] = r.id;
    lengths[k++] = r.id.length;
    parts[k] = r.date;
    lengths[k++] = r.date.length;
    parts[k] = r.updated;
    lengths[k++] = r.updated.length;
    parts[k] = title;
    lengths[k++] = title.length;
    parts[k] = r.text;
    lengths[k++] = r.text.length;
    titled[i] = r.title === undefined ? 0 : 1;
    ratings[i] = r.rating;
  }
  return {
    strings: parts.join(""),
    lengths,
    titled,
    ratings,
    technicians: mentioned(reviews, catalog.technicians, (r) => r.mentions.technicians),
    services: mentioned(reviews, catalog.services, (r) => r.mentions.services),
  };
}

export function unpackReviews(packed: PackedReviews, catalog: IndexCatalog): IndexedReview[] {
  const { strings, lengths, titled, ratings } = packed;
  const ids = (m: Mentioned, list: string[], i: number) => {
    const out: string[] = [];
    for (let at = m.starts[i]; at < m.starts[i + 1]; at++) out.push(list[m.keys[at]]);
    return out;
  };
  const out: IndexedReview[] = new Array(ratings.length);
  let at = 0;
  const next = (k: number) => {
    const from = at;
    at += lengths[k];
    return strings.slice(from, at);
  };
  for (let i = 0, k = 0; i < ratings.length; i++) {
    const id = next(k++);
    const date = next(k++);
    const updated = next(k++);
    const title = next(k++);
    const text = next(k++);
    out[i] = {
      id,
      date,
      updated,
      rating: ratings[i],
      ...(titled[i] ? { title } : {}),
      text,
      mentions: {
        technicians: ids(packed.technicians, catalog.technicians, i),
        services: ids(packed.services, catalog.services, i),
      },
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
    const catalog = indexCatalog(dataset.business);
    const job: IndexJob = {
      catalog,
      layout: locateReviews(dataset, datasetJson, reviewOffsets),
      reviews: packReviews(dataset.reviews, catalog),
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
