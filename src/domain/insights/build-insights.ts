import { LEXICON_VERSION } from "../analysis/sentiment.ts";
import { newestUpdated } from "../order.ts";
import type { PublishedContent } from "../publish-reviews.ts";
import type { Insights } from "../schemas/insights.ts";
import { aspectInsights } from "./aspect-insights.ts";
import type { EditorialContent } from "./editorial.ts";
import { entityInsights } from "./entity-insights.ts";
import { generatedFaq, generatedSummary } from "./generated-text.ts";
import { topicInsights } from "./topics.ts";

export const INSIGHTS_ENGINE = {
  engine: "clause-lexicon-absa",
  version: "1.1.0",
  attribution:
    "Contains information from AFINN-165 (https://github.com/fnielsen/afinn), which is made available here under the Open Database License (ODbL), https://opendatacommons.org/licenses/odbl/1-0/.",
};

export function buildInsights({ dataset, namedInText }: PublishedContent, editorial?: EditorialContent): Insights {
  const { reviews, business } = dataset;
  const parts = { aspects: aspectInsights(reviews), entities: entityInsights(business, reviews, namedInText) };
  return {
    method: { ...INSIGHTS_ENGINE, lexicon_version: LEXICON_VERSION },
    generated_from: { review_count: reviews.length, last_updated: newestUpdated(reviews) ?? null },
    ...parts,
    topics: topicInsights(business, reviews),
    faq: editorial?.faq ? { generated: false, items: editorial.faq } : generatedFaq(dataset, parts),
    summary: editorial?.summary
      ? { generated: false, text: editorial.summary, review_ids: [] }
      : generatedSummary(dataset, parts),
    period: { from: reviews.at(-1)?.date ?? null, to: reviews[0]?.date ?? null },
  };
}
