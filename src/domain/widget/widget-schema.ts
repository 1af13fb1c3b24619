// The files the embeddable widget reads (docs/widget.md). The widget's script imports these types only: it ships
// no zod. The build tests check every file the build writes against these schemas.
import * as z from "zod";
import { Aspect, IsoDate } from "../schemas/common.ts";
import { AggregateRating } from "../schemas/published.ts";
import { WIDGET_ENTITY_FIELDS, WIDGET_FORMAT, WIDGET_TEXT_CHARS, type WidgetEntity } from "./widget-paths.ts";

const WidgetBusiness = z.object({
  name: z.string(),
  url: z.url(),
  reviews_url: z.url().describe("The service's list of every review"),
  brand_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/)
    .nullable(),
});

const WidgetAspect = z.object({
  aspect: Aspect,
  label: z.string(),
  reviews: z.int().describe("Reviews of the slice with at least one clause about the aspect"),
  positive: z.int().describe("Clauses with a positive polarity"),
  negative: z.int(),
  neutral: z.int(),
});

export const WidgetReview = z
  .object({
    id: z.string(),
    url: z.url(),
    date: IsoDate,
    rating: z.int().min(1).max(5),
    author: z.string(),
    title: z.string().optional(),
    text: z.string().describe(`At most ${WIDGET_TEXT_CHARS} characters; cut ones end with an ellipsis`),
    truncated: z.boolean(),
    language: z.string().describe("The review's language (BCP 47), `und` when unknown"),
    responded: z.boolean().describe("The business answered the review (the answer is on the permalink page)"),
  })
  .meta({ id: "WidgetReview", description: "A review as the widget shows it: a short text and its permalink." });
export type WidgetReview = z.infer<typeof WidgetReview>;

/** One slice's summary: what the badge and aspects variants show. */
export const WidgetSummary = z
  .object({
    format: z.literal(WIDGET_FORMAT),
    business: WidgetBusiness,
    slice: z.object({
      kind: z.enum(["all", ...Object.keys(WIDGET_ENTITY_FIELDS)] as ["all", ...WidgetEntity[]]),
      id: z.string().nullable(),
      name: z.string(),
      url: z.url().describe("The page of the slice's reviews"),
    }),
    rating: AggregateRating,
    aspects: z.array(WidgetAspect),
  })
  .meta({
    id: "WidgetSummary",
    description: "The widget's data for one slice: the whole business or one catalogue entry.",
  });
export type WidgetSummary = z.infer<typeof WidgetSummary>;

/**
 * The summary and the reviews a list can show: the newest `WIDGET_MAX_COUNT` at each minimum rating and the best
 * `WIDGET_MAX_COUNT`, newest first. Any `count`, `sort` and `min-rating` is a filter and a cut of this list.
 */
export const WidgetReviews = WidgetSummary.extend({ reviews: z.array(WidgetReview) }).meta({
  id: "WidgetReviews",
  description: "A slice's summary and the reviews a widget list can show, newest first (at most 100).",
});
export type WidgetReviews = z.infer<typeof WidgetReviews>;
