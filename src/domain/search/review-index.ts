// One build's reviews as the search sees them: typed-array columns of the index file over the exact bytes of
// reviews.json. Opening it parses only the small header, the business and the aggregate rating; a review
// becomes an object only when a caller asks for that one review.
import { aggregateRating } from "../aggregate.ts";
import type { AggregateRating, Business, ReviewRecord } from "../schemas/published.ts";
import { catalogLookup } from "../validate-content.ts";
import { decodeIndexFile, IndexFormatError } from "./index-format.ts";
import { encodeReviewIndex } from "./index-writer.ts";
import { type Bitmap, type Postings, union } from "./sorted-sets.ts";
import { countOccurrences } from "./text-match.ts";
import { decodeRanks } from "./word-postings.ts";

export interface ReviewIndex {
  readonly count: number;
  readonly business: Business;
  readonly aggregateRating: AggregateRating;
  /** Day number of each review's date, by rank (rank = position in newest-first order). */
  readonly dates: Int32Array;
  /** Ranks in oldest-first order (the since endpoint's order). */
  readonly oldest: Int32Array;
  /** For position i of `oldest`: the newest `updated` (epoch ms) among oldest[i..]. */
  readonly sinceNewest: Float64Array;
  /** The exact bytes of the review at `rank` inside reviews.json (JSON.stringify of the record). */
  reviewBytes(rank: number): Buffer;
  /** The length of reviewBytes(rank), known without reading the bytes. */
  reviewLength(rank: number): number;
  /** Where reviewBytes(rank) starts inside reviews.json. */
  reviewOffset(rank: number): number;
  review(rank: number): ReviewRecord;
  /** Rank of a review id, or -1. */
  rankOf(id: string): number;
  /** One review by id, as an object. */
  readonly byId: { get(id: string): ReviewRecord | undefined };
  ratings(rating: number): Int32Array;
  technician(id: string): Int32Array;
  service(id: string): Int32Array;
  area(id: string): Int32Array;
  /** Ranks with a published aspect entry of `aspect` and `polarity` (either may be any), ascending. */
  aspect(aspect: string | undefined, polarity: string | undefined): Postings;
  /** Ranks whose folded title or text contains the trigram: ascending ranks, or a bitmap when frequent. */
  trigram(key: number): Int32Array | Bitmap;
  /** 3 x hits in the folded title + hits in the folded text, for the folded query's UTF-8 bytes. */
  relevance(rank: number, foldedQuery: Buffer): number;
  /**
   * `relevance` of every rank in [lo, hi) at once (index i is rank lo + i): one native substring scan over
   * their folded text, far cheaper than asking rank by rank when many of them are asked.
   */
  relevanceOfRange(foldedQuery: Buffer, lo: number, hi: number): Int32Array;
  /** The reviews holding a word key (word-fold.ts), ascending (decoded afresh), with its weighted count in each; none: empty lists. */
  word(key: string): WordList;
  /** Each review's weighted word count, by rank (word-postings.ts), and their mean: BM25's lengths. */
  readonly wordLengths: Uint32Array;
  readonly wordLengthAverage: number;
  resolveTechnician(ref: string): string | undefined;
  resolveService(ref: string): string | undefined;
  resolveArea(ref: string): string | undefined;
}

export interface WordList {
  ranks: Int32Array;
  weights: Uint8Array;
}

const EMPTY = new Int32Array(0);
const NO_WORD: WordList = { ranks: EMPTY, weights: new Uint8Array(0) };

/**
 * Where a page that starts at position `start` ends: at `stop`, or earlier once the JSON of its reviews
 * (`rankAt(position)`'s) would pass `maxBytes`; a page holds at least one review.
 */
export function pageEnd(
  index: Pick<ReviewIndex, "reviewLength">,
  rankAt: (position: number) => number,
  start: number,
  stop: number,
  maxBytes: number,
): number {
  let end = start;
  for (let bytes = 0; end < stop; end++) {
    bytes += index.reviewLength(rankAt(end));
    if (end > start && bytes > maxBytes) break;
  }
  return end;
}

function keyed(ids: unknown, offsets: Uint32Array, data: Int32Array): (id: string) => Int32Array {
  const pos = new Map((ids as string[]).map((id, i) => [id, i]));
  return (id) => {
    const k = pos.get(id);
    return k === undefined ? EMPTY : data.subarray(offsets[k], offsets[k + 1]);
  };
}

/**
 * The bytes of reviews.json as the index reads them: a Buffer, or anything that slices like one (the sidecar
 * reads large files from disk on demand rather than holding them).
 */
export interface ReviewsJsonBytes {
  readonly length: number;
  subarray(start: number, end: number): Buffer;
}

/** `indexBytes`: the index file; `reviewsJson`: the reviews.json it was written for. */
export function openReviewIndex(indexBytes: Uint8Array, reviewsJson: ReviewsJsonBytes): ReviewIndex {
  const f = decodeIndexFile(indexBytes);
  const meta = f.meta as {
    review_count: number;
    reviews_json_size: number;
    business: [number, number];
    aggregate_rating: [number, number];
    technicians: string[];
    services: string[];
    areas: string[];
    aspect_keys: string[];
    word_length_average: number;
  };
  if (meta.reviews_json_size !== reviewsJson.length)
    throw new IndexFormatError("was written for another reviews.json (sizes differ): the build is inconsistent");
  const parseRange = (r: [number, number]) => JSON.parse(reviewsJson.subarray(r[0], r[1]).toString("utf8"));
  const business = parseRange(meta.business) as Business;
  const reviewOffsets = f.u32("reviewOffsets");
  const idOffsets = f.u32("idOffsets");
  const idBytes = Buffer.from(f.u8("idBytes").buffer, f.u8("idBytes").byteOffset, f.u8("idBytes").byteLength);
  const byId = f.i32("byId");
  const ratingOffsets = f.u32("ratingOffsets");
  const ratingData = f.i32("ratingData");
  const trigramKeys = f.f64("trigramKeys");
  const trigramOffsets = f.u32("trigramOffsets");
  const trigramCounts = f.u32("trigramCounts");
  const trigramBitmap = f.u8("trigramBitmap");
  const trigramData = f.i32("trigramData");
  const foldedOffsets = f.u32("foldedOffsets");
  const folded = f.u8("foldedBytes");
  const foldedBuffer = Buffer.from(folded.buffer, folded.byteOffset, folded.byteLength);
  const reviewBytes = (rank: number) => reviewsJson.subarray(reviewOffsets[rank], reviewOffsets[rank + 1] - 1);
  const aspectPostings = keyed(meta.aspect_keys, f.u32("aspectOffsets"), f.i32("aspectData"));
  const wordKeyOffsets = f.u32("wordKeyOffsets");
  const wordKeyBytes = f.u8("wordKeyBytes");
  const wordKeys = Buffer.from(wordKeyBytes.buffer, wordKeyBytes.byteOffset, wordKeyBytes.byteLength);
  const wordPostingOffsets = f.u32("wordPostingOffsets");
  const wordRankByteOffsets = f.u32("wordRankByteOffsets");
  const wordRankBytes = f.u8("wordRankBytes");
  const wordWeights = f.u8("wordWeights");
  const techLookup = catalogLookup(business.technicians);
  const serviceLookup = catalogLookup(business.services);
  const areaLookup = catalogLookup(business.service_areas);

  const review = (rank: number) => JSON.parse(reviewBytes(rank).toString("utf8")) as ReviewRecord;
  const rankOf = (id: string) => {
    const target = Buffer.from(id);
    let lo = 0;
    let hi = byId.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const r = byId[mid];
      const c = Buffer.compare(idBytes.subarray(idOffsets[r], idOffsets[r + 1]), target);
      if (c === 0) return r;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  };

  return {
    count: meta.review_count,
    business,
    aggregateRating: parseRange(meta.aggregate_rating) as AggregateRating,
    dates: f.i32("dates"),
    oldest: f.i32("oldest"),
    sinceNewest: f.f64("sinceNewest"),
    reviewBytes,
    reviewLength: (rank) => reviewOffsets[rank + 1] - 1 - reviewOffsets[rank],
    reviewOffset: (rank) => reviewOffsets[rank],
    review,
    rankOf,
    byId: {
      get(id) {
        const rank = rankOf(id);
        return rank < 0 ? undefined : review(rank);
      },
    },
    ratings: (rating) =>
      rating >= 0 && rating <= 5 ? ratingData.subarray(ratingOffsets[rating], ratingOffsets[rating + 1]) : EMPTY,
    technician: keyed(meta.technicians, f.u32("techOffsets"), f.i32("techData")),
    service: keyed(meta.services, f.u32("serviceOffsets"), f.i32("serviceData")),
    area: keyed(meta.areas, f.u32("areaOffsets"), f.i32("areaData")),
    aspect: (aspect, polarity) => {
      const lists = meta.aspect_keys
        .filter((key) => {
          const [a, p] = key.split("/");
          return (aspect === undefined || a === aspect) && (polarity === undefined || p === polarity);
        })
        .map(aspectPostings);
      return lists.length === 1 ? lists[0] : union(lists);
    },
    trigram(key) {
      let lo = 0;
      let hi = trigramKeys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (trigramKeys[mid] < key) lo = mid + 1;
        else hi = mid;
      }
      if (lo === trigramKeys.length || trigramKeys[lo] !== key) return EMPTY;
      const list = trigramData.subarray(trigramOffsets[lo], trigramOffsets[lo + 1]);
      return trigramBitmap[lo] ? { words: list, count: trigramCounts[lo] } : list;
    },
    relevance(rank, q) {
      const text = foldedOffsets[2 * rank + 1];
      return (
        3 * countOccurrences(folded, foldedOffsets[2 * rank], text, q) +
        countOccurrences(folded, text, foldedOffsets[2 * rank + 2], q)
      );
    },
    relevanceOfRange(q, lo, hi) {
      const scores = new Int32Array(Math.max(0, hi - lo));
      const m = q.length;
      if (m === 0 || hi <= lo) return scores;
      const end = foldedOffsets[2 * hi];
      let r = lo;
      // Non-overlapping hits per field, as countOccurrences counts them: after a hit, go on past it; a hit
      // across the end of a field (title into text, text into the next title) does not count, go on at p + 1.
      let p = foldedBuffer.indexOf(q, foldedOffsets[2 * lo]);
      while (p !== -1 && p + m <= end) {
        while (foldedOffsets[2 * r + 2] <= p) r++;
        const text = foldedOffsets[2 * r + 1];
        if (p < text ? p + m > text : p + m > foldedOffsets[2 * r + 2]) {
          p = foldedBuffer.indexOf(q, p + 1);
          continue;
        }
        scores[r - lo] += p < text ? 3 : 1;
        p = foldedBuffer.indexOf(q, p + m);
      }
      return scores;
    },
    word(key) {
      const target = Buffer.from(key);
      let lo = 0;
      let hi = wordKeyOffsets.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const c = Buffer.compare(wordKeys.subarray(wordKeyOffsets[mid], wordKeyOffsets[mid + 1]), target);
        if (c === 0) {
          const from = wordPostingOffsets[mid];
          const to = wordPostingOffsets[mid + 1];
          return {
            ranks: decodeRanks(wordRankBytes, wordRankByteOffsets[mid], to - from),
            weights: wordWeights.subarray(from, to),
          };
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
      }
      return NO_WORD;
    },
    wordLengths: f.u32("wordLengths"),
    wordLengthAverage: meta.word_length_average,
    resolveTechnician: (ref) => techLookup(ref.trim()),
    resolveService: (ref) => serviceLookup(ref.trim()),
    resolveArea: (ref) => areaLookup(ref.trim()),
  };
}

/** An index straight from records (newest first), for tests and tools: the same bytes a build would write. */
export function buildReviewIndex(business: Business, reviews: readonly ReviewRecord[]): ReviewIndex {
  const dataset = { business, aggregate_rating: aggregateRating(reviews), reviews: [...reviews] };
  const json = Buffer.from(JSON.stringify(dataset));
  return openReviewIndex(encodeReviewIndex(dataset, json), json);
}
