// What every page renders from: one build's business, insights, reviews and search index. In the sidecar the
// reviews are read from the index (byte slices of reviews.json); at build time from the dataset itself.
import type { Insights } from "../schemas/insights.ts";
import type { ReviewRecord, ReviewsDataset } from "../schemas/published.ts";
import type { ReviewIndex } from "../search/review-index.ts";

export interface PageData {
  baseUrl: string;
  dataset: Pick<ReviewsDataset, "business" | "aggregate_rating">;
  insights: Insights;
  /** Number of published reviews. */
  reviewCount: number;
  /** The reviews at newest-first ranks [start, end). */
  reviewsAt(start: number, end: number): ReviewRecord[];
  /** Every published review, newest first (its position is its rank). */
  allReviews(): Iterable<ReviewRecord>;
  index: ReviewIndex;
}

/** The sidecar's page data: nothing but the build's index and insights is held. */
export function pageDataFromIndex(baseUrl: string, index: ReviewIndex, insights: Insights): PageData {
  return {
    baseUrl,
    dataset: { business: index.business, aggregate_rating: index.aggregateRating },
    insights,
    reviewCount: index.count,
    reviewsAt: (start, end) => {
      const out: ReviewRecord[] = [];
      for (let rank = Math.max(0, start); rank < Math.min(end, index.count); rank++) out.push(index.review(rank));
      return out;
    },
    *allReviews() {
      for (let rank = 0; rank < index.count; rank++) yield index.review(rank);
    },
    index,
  };
}

/** The build's page data: the dataset in memory; the search index only made if a page asks for it. */
export function pageDataFromDataset(
  baseUrl: string,
  dataset: ReviewsDataset,
  insights: Insights,
  makeIndex: () => ReviewIndex,
): PageData {
  let index: ReviewIndex | undefined;
  return {
    baseUrl,
    dataset,
    insights,
    reviewCount: dataset.reviews.length,
    reviewsAt: (start, end) => dataset.reviews.slice(Math.max(0, start), end),
    allReviews: () => dataset.reviews,
    get index() {
      index ??= makeIndex();
      return index;
    },
  };
}
