// Everything the service publishes. OpenAPI components and MCP output schemas are generated from these.
import * as z from "zod";
import { REDACTED } from "../pii/policy.ts";
import { Aspect, DateTime, Id, IsoDate, Sentiment } from "./common.ts";
import { BusinessContent } from "./content.ts";

/** The language a review without one is published with (and the Atom feed's own). */
export const DEFAULT_LANGUAGE = "en";

export const Business = BusinessContent;
export type Business = z.infer<typeof Business>;

export const ReviewRecord = z
  .object({
    id: z.string().describe("File name of the review without .json"),
    rating: z.int().min(1).max(5),
    date: IsoDate,
    updated: DateTime.describe("Last change (owner response included), UTC"),
    title: z.string().optional(),
    text: z
      .string()
      .describe(
        `The customer's words. Customers' emails and phone numbers here and in title, author and response are replaced by ${REDACTED.email} and ${REDACTED.phone}`,
      ),
    author: z.string(),
    source: z.string(),
    language: z.string(),
    response: z.object({ text: z.string(), date: IsoDate }).optional(),
    mentions: z.object({ technicians: z.array(Id), services: z.array(Id), service_areas: z.array(Id) }),
    sentiment: z.object({ score: z.number().min(-1).max(1), label: Sentiment }),
    aspects: z.array(
      z.object({
        aspect: Aspect,
        polarity: Sentiment,
        quote: z.string().describe("Exact substring of the title or text"),
      }),
    ),
  })
  .meta({ id: "Review", description: "A verified review as published everywhere (datasets, search, feeds, MCP)." });
export type ReviewRecord = z.infer<typeof ReviewRecord>;

export const AggregateRating = z
  .object({
    rating_value: z.number().min(0).max(5).describe("Mean of published ratings, 2 decimals (0 when none)"),
    review_count: z.int().min(0),
    best_rating: z.literal(5),
    worst_rating: z.literal(1),
    distribution: z.object({ 1: z.int(), 2: z.int(), 3: z.int(), 4: z.int(), 5: z.int() }),
  })
  .meta({ id: "AggregateRating" });
export type AggregateRating = z.infer<typeof AggregateRating>;

export const ReviewsDataset = z
  .object({ business: Business, aggregate_rating: AggregateRating, reviews: z.array(ReviewRecord) })
  .meta({ id: "ReviewsDataset", description: "Every verified review, newest first." });
export type ReviewsDataset = z.infer<typeof ReviewsDataset>;

export const JsonFeedItem = z
  .object({
    id: z.string(),
    url: z.url(),
    title: z.string(),
    content_text: z.string(),
    content_html: z.string(),
    date_published: DateTime,
    date_modified: DateTime,
    authors: z.array(z.object({ name: z.string() })),
    tags: z.array(z.string()),
    language: z.string(),
    _review: z.object({
      rating: z.int(),
      best_rating: z.literal(5),
      mentions: ReviewRecord.shape.mentions,
      sentiment: ReviewRecord.shape.sentiment,
    }),
  })
  .meta({ id: "JsonFeedItem" });

export const JsonFeed = z
  .object({
    version: z.literal("https://jsonfeed.org/version/1.1"),
    title: z.string(),
    home_page_url: z.url(),
    feed_url: z.url(),
    description: z.string().optional(),
    language: z.string(),
    hubs: z.array(z.object({ type: z.literal("WebSub"), url: z.url() })),
    items: z.array(JsonFeedItem).max(50),
  })
  .meta({ id: "JsonFeed", description: "JSON Feed 1.1 with the 50 newest reviews." });
export type JsonFeed = z.infer<typeof JsonFeed>;
