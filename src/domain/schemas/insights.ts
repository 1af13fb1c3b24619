// The insights dataset (/insights.json). Generated text is flagged and never presented as a review.
import * as z from "zod";
import { Aspect, IsoDate, Sentiment } from "./common.ts";

const SentimentSummary = z.object({ score: z.number().min(-1).max(1), label: Sentiment });
const Quote = z.object({ review_id: z.string(), polarity: Sentiment, quote: z.string() });

export const AspectInsight = z
  .object({
    aspect: Aspect,
    label: z.string(),
    mentions: z.int().describe("Clauses about this aspect"),
    reviews: z.int().describe("Reviews with at least one clause about this aspect"),
    positive: z.int(),
    negative: z.int(),
    neutral: z.int(),
    score: z.number().min(-1).max(1).describe("(positive - negative) / mentions"),
    share_positive: z.number().min(0).max(1),
    share_negative: z.number().min(0).max(1),
    trend: z.array(z.object({ quarter: z.string().regex(/^\d{4}-Q[1-4]$/), mentions: z.int(), score: z.number() })),
    top_terms: z.array(z.object({ term: z.string(), count: z.int() })),
    examples: z.array(Quote),
  })
  .meta({ id: "AspectInsight" });

export const EntityInsight = z
  .object({
    id: z.string(),
    name: z.string(),
    mentions: z.int().describe("Reviews whose text names the entity"),
    reviews: z.int().describe("Reviews linked to the entity (named in the text or tagged)"),
    average_rating: z.number().nullable(),
    sentiment: SentimentSummary,
    top_aspects: z.array(z.object({ aspect: Aspect, mentions: z.int(), score: z.number() })),
  })
  .meta({ id: "EntityInsight" });

export const TopicInsight = z
  .object({
    phrase: z.string(),
    reviews: z.int(),
    sentiment: SentimentSummary,
    services: z.array(z.string()).describe("Services that co-occur with the phrase in at least a third of its reviews"),
    aspects: z.array(Aspect),
    review_ids: z.array(z.string()).describe("Up to five example reviews"),
  })
  .meta({ id: "TopicInsight" });

export const ReviewLabel = z
  .enum(["positive", "neutral", "negative", "mixed"])
  .describe(
    "A review's overall label in the insights: `mixed` when it clearly praises and criticises with no verdict. Published records keep sentiment.label positive | neutral | negative (the search filters are unaffected).",
  );

export const FaqItem = z.object({ question: z.string().min(1), answer: z.string().min(1) });

export const Insights = z
  .object({
    method: z.object({
      engine: z.string(),
      version: z.string(),
      lexicon_version: z.string().describe("Version of the sentiment lexicon"),
      lexicons: z
        .record(z.string(), z.string())
        .describe("Every lexicon and word list the analysis reads, with its version"),
      model: z
        .string()
        .describe("The review-label model that gives the review labels, record labels and scores (name@version)"),
      aspect_model: z
        .string()
        .describe("The aspect layer that decides each review's aspects and their polarity (name@version)"),
      analysis_version: z
        .string()
        .describe("Engine, model and lexicon versions in one string; changes whenever a result may"),
      attribution: z.string().describe("Notices required by the licences of the word lists"),
    }),
    generated_from: z.object({ review_count: z.int(), last_updated: z.string().nullable() }),
    review_labels: z
      .object({ positive: z.int(), neutral: z.int(), negative: z.int(), mixed: z.int() })
      .describe("Reviews per overall label (see ReviewLabel)"),
    aspects: z.array(AspectInsight),
    entities: z.object({
      technicians: z.array(EntityInsight),
      services: z.array(EntityInsight),
      service_areas: z.array(EntityInsight),
    }),
    topics: z.array(TopicInsight),
    faq: z.object({
      generated: z.boolean().describe("true when written by the build from the insights, not by the business"),
      items: z.array(FaqItem.extend({ review_ids: z.array(z.string()).optional() })),
    }),
    summary: z.object({ generated: z.boolean(), text: z.string(), review_ids: z.array(z.string()) }),
    period: z.object({ from: IsoDate.nullable(), to: IsoDate.nullable() }),
  })
  .meta({
    id: "Insights",
    description: "Aspect-based sentiment, entities, topics, FAQ and editorial summary, computed at build time.",
  });
export type Insights = z.infer<typeof Insights>;

export const INSIGHT_SECTIONS = ["aspects", "entities", "topics", "faq", "summary"] as const;

export const Editorial = z.strictObject({
  faq: z.array(z.strictObject({ question: z.string().min(1), answer: z.string().min(1) })).optional(),
});
