// What every page renders from: the published dataset, its insights and the search index of one build.
import type { Insights } from "../schemas/insights.ts";
import type { ReviewsDataset } from "../schemas/published.ts";
import type { ReviewIndex } from "../search/review-index.ts";

export interface PageData {
  baseUrl: string;
  dataset: ReviewsDataset;
  insights: Insights;
  index: ReviewIndex;
}
