// Dataset + the exact bytes of reviews.json -> the search index file (see index-format.ts for the container).
import { compareOldest } from "../order.ts";
import { ASPECTS, Sentiment } from "../schemas/common.ts";
import type { ReviewRecord, ReviewsDataset } from "../schemas/published.ts";
import { encodeIndexFile, IndexFormatError } from "./index-format.ts";
import { dayNumber } from "./index-keys.ts";
import { foldText } from "./text-match.ts";
import { trigramPostings } from "./trigram-postings.ts";
import { wordPostings } from "./word-postings.ts";

/** Posting lists for keys 0..keys-1, each ascending, as one offsets column and one data column. */
/** Every (aspect, polarity) pair, in the order the index keeps their postings. */
export const ASPECT_KEYS: [string, string][] = ASPECTS.flatMap((a) =>
  Sentiment.options.map((p): [string, string] => [a, p]),
);

function postings(keys: number, count: number, keysOf: (rank: number) => Iterable<number>) {
  const offsets = new Uint32Array(keys + 1);
  for (let rank = 0; rank < count; rank++) for (const k of keysOf(rank)) offsets[k + 1]++;
  for (let k = 0; k < keys; k++) offsets[k + 1] += offsets[k];
  const data = new Int32Array(offsets[keys]);
  const fill = offsets.slice(0, keys);
  for (let rank = 0; rank < count; rank++) for (const k of keysOf(rank)) data[fill[k]++] = rank;
  return { offsets, data };
}

const headOf = ({ business, aggregate_rating }: ReviewsDataset) =>
  `{"business":${JSON.stringify(business)},"aggregate_rating":${JSON.stringify(aggregate_rating)},"reviews":[`;

/** reviews.json as made by serialiseDataset: the bytes, and where each review starts in them (n + 1 offsets). */
export interface DatasetJson {
  json: Uint8Array<ArrayBuffer>;
  reviewOffsets: Uint32Array<ArrayBuffer>;
}

/**
 * JSON.stringify(dataset) as UTF-8, written review by review so that each review's byte range is known from the
 * strings that make the bytes: the index writer then need not stringify every review again to find and check it.
 */
export function serialiseDataset(
  dataset: ReviewsDataset,
  /** A review's JSON.stringify as UTF-8 when the caller has it already (the build's analysis cache). */
  jsonOf: (review: ReviewsDataset["reviews"][number]) => Uint8Array | undefined = () => undefined,
): DatasetJson {
  // What headOf and the closing "]}" spell: JSON.stringify would write other members too.
  if (Object.keys(dataset).join() !== "business,aggregate_rating,reviews") throw new Error("unexpected dataset shape");
  const parts = dataset.reviews.map((r) => jsonOf(r) ?? JSON.stringify(r));
  const head = headOf(dataset);
  const reviewOffsets = new Uint32Array(parts.length + 1);
  let at = Buffer.byteLength(head);
  for (let rank = 0; rank < parts.length; rank++) {
    reviewOffsets[rank] = at;
    const part = parts[rank];
    at += (typeof part === "string" ? Buffer.byteLength(part) : part.length) + 1;
  }
  reviewOffsets[parts.length] = at;
  // Each string (or the caller's bytes) written once into bytes of the exact size: no joined string of the whole
  // file to make, flatten and encode. A review whose byte length is its length is ASCII: copied as Latin-1, which is the same bytes
  // and a tenth of the UTF-8 encoder's time (measured at 100,000 reviews: 0.85 s -> 0.25 s for the whole file).
  const end = at - (parts.length > 0 ? 1 : 0);
  const bytes = Buffer.allocUnsafeSlow(end + 2);
  bytes.write(head, 0, "utf8");
  for (let rank = 0; rank < parts.length; rank++) {
    const from = reviewOffsets[rank];
    const to = reviewOffsets[rank + 1] - 1;
    const part = parts[rank];
    if (typeof part !== "string") bytes.set(part, from);
    else bytes.write(part, from, to - from === part.length ? "latin1" : "utf8");
    if (rank < parts.length - 1) bytes[to] = 0x2c; // ","
  }
  bytes.write("]}", end, "latin1");
  const json = new Uint8Array(bytes.buffer as ArrayBuffer, 0, end + 2);
  return { json, reviewOffsets };
}

/** What the index reads of a review; the rest of the record is only in reviews.json's bytes. */
export type IndexedReview = Pick<ReviewRecord, "id" | "date" | "updated" | "rating" | "title" | "text"> & {
  aspects: Pick<ReviewRecord["aspects"][number], "aspect" | "polarity">[];
  mentions: Pick<ReviewRecord["mentions"], "technicians" | "services" | "service_areas">;
};

/** Where the parts of reviews.json are, found in its bytes and checked against the dataset (locateReviews). */
export interface ReviewsJsonLayout {
  size: number;
  business: [number, number];
  aggregate_rating: [number, number];
  /** Where each review starts (n + 1 offsets, the last one past the last review's comma). */
  reviewOffsets: Uint32Array;
}

/** The ids the index keeps postings for, in the catalog's order. */
export interface IndexCatalog {
  technicians: string[];
  services: string[];
  areas: string[];
}

export const indexCatalog = (business: ReviewsDataset["business"]): IndexCatalog => ({
  technicians: business.technicians.map((t) => t.id),
  services: business.services.map((s) => s.id),
  areas: business.service_areas.map((a) => a.id),
});

/**
 * `reviewsJson` must be JSON.stringify(dataset) (what the build publishes as reviews.json). Each review's byte
 * range inside it is computed and checked here, so a sidecar can answer with slices of the published bytes; or,
 * when `made` is serialiseDataset's own result for these bytes, taken from it.
 */
export function encodeReviewIndex(dataset: ReviewsDataset, reviewsJson: Uint8Array, made?: Uint32Array): Uint8Array {
  return encodeIndexColumns(indexCatalog(dataset.business), dataset.reviews, locateReviews(dataset, reviewsJson, made));
}

/** The layout of `reviewsJson` (JSON.stringify(dataset)), checked; `made` as for encodeReviewIndex. */
export function locateReviews(dataset: ReviewsDataset, reviewsJson: Uint8Array, made?: Uint32Array): ReviewsJsonLayout {
  const { business, aggregate_rating, reviews } = dataset;
  const raw = Buffer.from(reviewsJson.buffer, reviewsJson.byteOffset, reviewsJson.byteLength);
  const n = reviews.length;
  const head = headOf(dataset);
  const businessStart = Buffer.byteLength('{"business":');
  const businessEnd = businessStart + Buffer.byteLength(JSON.stringify(business));
  const aggregateStart = businessEnd + Buffer.byteLength(',"aggregate_rating":');
  const aggregateEnd = aggregateStart + Buffer.byteLength(JSON.stringify(aggregate_rating));
  const mismatch = () => new IndexFormatError("reviews.json is not JSON.stringify of the dataset; cannot index it");
  if (raw.length > 0xffffffff) throw new IndexFormatError("reviews.json over 4 GiB cannot be indexed");
  if (!raw.subarray(0, Buffer.byteLength(head)).equals(Buffer.from(head))) throw mismatch();

  let reviewOffsets = made;
  if (reviewOffsets?.length !== n + 1) {
    reviewOffsets = new Uint32Array(n + 1);
    let at = Buffer.byteLength(head);
    for (let rank = 0; rank < n; rank++) {
      const bytes = Buffer.from(JSON.stringify(reviews[rank]));
      if (!raw.subarray(at, at + bytes.length).equals(bytes)) throw mismatch();
      reviewOffsets[rank] = at;
      at += bytes.length + 1;
    }
    reviewOffsets[n] = at;
  }
  const at = reviewOffsets[n];
  if (raw.toString("utf8", at - (n > 0 ? 1 : 0)) !== "]}") throw mismatch();
  return {
    size: raw.length,
    business: [businessStart, businessEnd],
    aggregate_rating: [aggregateStart, aggregateEnd],
    reviewOffsets,
  };
}

/** The index file from what it reads of each review (newest first) and reviews.json's checked layout. */
export function encodeIndexColumns(
  catalog: IndexCatalog,
  reviews: readonly IndexedReview[],
  layout: ReviewsJsonLayout,
): Uint8Array {
  const n = reviews.length;
  const { reviewOffsets } = layout;
  if (reviewOffsets.length !== n + 1) throw new IndexFormatError("the layout does not match the reviews");
  const dates = Int32Array.from(reviews, (r) => dayNumber(r.date));
  const oldest = Int32Array.from(reviews.keys()).sort((a, b) => compareOldest(reviews[a], reviews[b]));
  const sinceNewest = new Float64Array(n);
  for (let i = n - 1, max = Number.NEGATIVE_INFINITY; i >= 0; i--) {
    max = Math.max(max, Date.parse(reviews[oldest[i]].updated));
    sinceNewest[i] = max;
  }

  const idBytes = reviews.map((r) => Buffer.from(r.id));
  const idOffsets = new Uint32Array(n + 1);
  for (let rank = 0; rank < n; rank++) idOffsets[rank + 1] = idOffsets[rank] + idBytes[rank].length;
  const byId = Int32Array.from(reviews.keys()).sort((a, b) => Buffer.compare(idBytes[a], idBytes[b]));

  const ratings = postings(6, n, (rank) => [reviews[rank].rating]);
  const techIds = catalog.technicians;
  const serviceIds = catalog.services;
  const keyList = (ids: string[], of: (rank: number) => string[]) => {
    const pos = new Map(ids.map((id, i) => [id, i]));
    return (rank: number) => of(rank).flatMap((id) => (pos.has(id) ? [pos.get(id) as number] : []));
  };
  const techs = postings(
    techIds.length,
    n,
    keyList(techIds, (r) => reviews[r].mentions.technicians),
  );
  const services = postings(
    serviceIds.length,
    n,
    keyList(serviceIds, (r) => reviews[r].mentions.services),
  );
  const areas = postings(
    catalog.areas.length,
    n,
    keyList(catalog.areas, (r) => reviews[r].mentions.service_areas),
  );
  // One list per (aspect, polarity): the reviews with a published aspect entry of both.
  const aspectKeys = ASPECT_KEYS.map(([a, p]) => `${a}/${p}`);
  const aspects = postings(
    aspectKeys.length,
    n,
    keyList(aspectKeys, (r) => [...new Set(reviews[r].aspects.map((a) => `${a.aspect}/${a.polarity}`))]),
  );

  // Folded title and text of each review, as UTF-8: [title0, text0, title1, text1, ...] with 2n+1 offsets.
  const folded = reviews.flatMap((r) => [foldText(r.title ?? ""), foldText(r.text)]);
  const foldedBytes = Buffer.from(folded.join(""));
  const foldedOffsets = new Uint32Array(2 * n + 1);
  for (let i = 0; i < folded.length; i++) foldedOffsets[i + 1] = foldedOffsets[i] + Buffer.byteLength(folded[i]);

  const grams = trigramPostings(folded, n);
  const words = wordPostings(folded, n);
  let wordTotal = 0;
  for (let rank = 0; rank < n; rank++) wordTotal += words.lengths[rank];

  return encodeIndexFile(
    {
      review_count: n,
      reviews_json_size: layout.size,
      business: layout.business,
      aggregate_rating: layout.aggregate_rating,
      technicians: techIds,
      services: serviceIds,
      areas: catalog.areas,
      aspect_keys: aspectKeys,
      word_length_average: n === 0 ? 0 : wordTotal / n,
    },
    {
      reviewOffsets,
      dates,
      oldest,
      sinceNewest,
      idOffsets,
      idBytes: Buffer.concat(idBytes),
      byId,
      ratingOffsets: ratings.offsets,
      ratingData: ratings.data,
      techOffsets: techs.offsets,
      techData: techs.data,
      serviceOffsets: services.offsets,
      serviceData: services.data,
      areaOffsets: areas.offsets,
      areaData: areas.data,
      aspectOffsets: aspects.offsets,
      aspectData: aspects.data,
      trigramKeys: grams.keys,
      trigramCounts: grams.counts,
      trigramBitmap: grams.bitmap,
      trigramOffsets: grams.offsets,
      trigramData: grams.data,
      foldedOffsets,
      foldedBytes,
      wordKeyOffsets: words.keyOffsets,
      wordKeyBytes: words.keyBytes,
      wordPostingOffsets: words.postingOffsets,
      wordRankByteOffsets: words.rankByteOffsets,
      wordRankBytes: words.rankBytes,
      wordWeights: words.weights,
      wordLengths: words.lengths,
    },
  );
}
