// Request and response schemas of the dynamic read API; the MCP tools use the same ones.
import * as z from "zod";
import { Aspect, IsoDate, Sentiment } from "./common.ts";
import { ReviewRecord } from "./published.ts";

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;
export const QUERY_MAX_LENGTH = 200;

/** How `query` matches: SPEC's substring (the default), or every word in any order (match=words). */
export const SEARCH_MATCHES = ["substring", "words"] as const;
export const SearchMatch = z.enum(SEARCH_MATCHES);
export type SearchMatch = z.infer<typeof SearchMatch>;

/** Result orders; without `sort` the order is `relevance` when there is a query, `newest` otherwise. */
export const SEARCH_SORTS = ["newest", "oldest", "highest", "lowest", "relevance"] as const;
export const SearchSort = z.enum(SEARCH_SORTS);
export type SearchSort = z.infer<typeof SearchSort>;

const name = z.string().trim().min(1).max(100);

/**
 * Numbers in a query string are decimal digits only (no `0x10`, `+5`, `1e0`, spaces): the string is turned into a
 * number only when it is written that way, so anything else fails with the message below. MCP passes JSON numbers.
 */
const decimal = <T extends z.ZodType>(pattern: RegExp, inner: T) =>
  z.preprocess((v) => (typeof v === "string" && pattern.test(v) ? Number(v) : v), inner);
const notDigits = (what: string) => ({
  error: (i: { code: string; input?: unknown }) =>
    i.code === "invalid_type" && i.input !== undefined ? `must be ${what}` : undefined,
});
const DECIMAL_INT = /^[0-9]{1,9}$/;
const DECIMAL_NUMBER = /^[0-9]{1,9}(\.[0-9]{1,9})?$/;

/** A page size written in digits, 1 to `max`. */
const pageSize = (max: number) => z.int(notDigits("a whole number written in digits")).min(1).max(max);

export const SearchParams = z
  .strictObject({
    rating: decimal(
      DECIMAL_INT,
      z.int(notDigits("a whole number written in digits")).min(1).max(5).optional().describe("Exact star rating"),
    ),
    min_rating: decimal(
      DECIMAL_NUMBER,
      z
        .number(notDigits("a number written in digits"))
        .min(1)
        .max(5)
        .optional()
        .describe("Minimum star rating, inclusive"),
    ),
    since: IsoDate.optional().describe("Only reviews on or after this date"),
    until: IsoDate.optional().describe("Only reviews on or before this date"),
    query: z
      .string()
      .min(1)
      .max(QUERY_MAX_LENGTH)
      .optional()
      .describe(
        "Substring of the title or text, ignoring case and diacritics (both sides NFKC-normalised, lowercased, combining marks removed: Martinez finds Martínez); see match",
      ),
    match: SearchMatch.optional().describe(
      "substring (default): query as one text. words: all its words, any order, plurals, -ed, -ing folded, stop words (the, of…) ignored; BM25 relevance",
    ),
    mentions_technician: name.optional().describe("Technician id, name or alias, any case"),
    mentions_service: name.optional().describe("Service id, name or alias, any case"),
    mentions_area: name.optional().describe("Service area id, name or alias, any case"),
    aspect: Aspect.optional().describe("Only reviews with a published aspect of this id"),
    aspect_polarity: Sentiment.optional().describe(
      "Only reviews with an aspect of this polarity (the same aspect when `aspect` is given)",
    ),
    sort: SearchSort.optional().describe(
      "newest (default without query), oldest, highest or lowest rating (newest first within a rating), relevance (default with query; newest without one)",
    ),
    limit: decimal(DECIMAL_INT, pageSize(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT).describe("Page size")),
    cursor: z.string().min(1).max(512).optional().describe("next_cursor of the previous page, with the same filters"),
  })
  .refine((p) => !p.since || !p.until || p.since <= p.until, {
    path: ["since"],
    message: "since must not be after until",
  });
export type SearchParams = z.output<typeof SearchParams>;

export const SearchResult = z
  .object({
    total: z.int().min(0).describe("Number of reviews matching the filters, over all pages"),
    count: z.int().min(0).describe("Number of reviews on this page"),
    limit: z.int(),
    reviews: z.array(ReviewRecord),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
  })
  .meta({ id: "SearchResult" });
export type SearchResult = z.infer<typeof SearchResult>;

/** search_reviews (MCP): the search's parameters, and how much of each review to give. */
export const SearchToolParams = SearchParams.safeExtend({
  view: z
    .enum(["full", "compact"])
    .default("full")
    .describe(
      "full: whole records; compact: id, rating, date, title, a short excerpt and aspects (get_review for the rest)",
    ),
});

export const CompactReview = z
  .object({
    id: z.string(),
    rating: z.int().min(1).max(5),
    date: IsoDate,
    title: z.string().optional(),
    excerpt: z.string().describe("The start of the text, cut at a word with …"),
    aspects: z.array(z.object({ aspect: z.string(), polarity: z.string() })),
  })
  .describe("A review in a few fields (search_reviews with view=compact)");

/** search_reviews' result: whole records, or compact ones with view=compact. */
export const SearchToolResult = z.object({
  ...SearchResult.shape,
  reviews: z.array(z.union([ReviewRecord, CompactReview])),
});

export const SINCE_LIMIT_MAX = 1000;
/** Page size of a since request that brings a cursor but no limit. */
export const SINCE_PAGE_DEFAULT = 100;

export const SinceParams = z.strictObject({
  date: IsoDate.describe("Reviews on or after this date"),
  limit: decimal(
    DECIMAL_INT,
    pageSize(SINCE_LIMIT_MAX)
      .optional()
      .describe(
        `Reviews per page, 1-${SINCE_LIMIT_MAX}. Without limit and cursor the answer holds every review on or after the date`,
      ),
  ),
  cursor: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe(
      `next_cursor of the previous page, for the same date (pages of ${SINCE_PAGE_DEFAULT} when limit is absent)`,
    ),
});
export type SinceParams = z.output<typeof SinceParams>;

/** get_reviews_since (MCP): always paged, pages sized for a context window. */
export const SinceToolParams = SinceParams.extend({
  limit: decimal(
    DECIMAL_INT,
    pageSize(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT).describe(`Reviews per page, 1-${SEARCH_LIMIT_MAX}`),
  ),
});

export const SinceResult = z
  .object({
    since: IsoDate,
    count: z.int().min(0).describe("Number of reviews in this answer"),
    total: z.int().min(0).optional().describe("Paged answers: number of reviews on or after the date, over all pages"),
    limit: z.int().min(1).optional().describe("Paged answers: the page size"),
    next_cursor: z
      .string()
      .nullable()
      .optional()
      .describe("Paged answers: pass as `cursor` for the next page; null on the last page"),
    reviews: z.array(ReviewRecord).describe("Oldest first"),
  })
  .meta({ id: "SinceResult" });
export type SinceResult = z.infer<typeof SinceResult>;

export const Issue = z
  .object({
    path: z.array(z.union([z.string(), z.number()])),
    code: z.string(),
    message: z.string(),
  })
  .meta({ id: "Issue" });
export type Issue = z.infer<typeof Issue>;

export const IssuesBody = z.object({ issues: z.array(Issue).min(1) }).meta({ id: "Issues" });

export const ErrorBody = z
  .object({ error: z.string(), message: z.string() })
  .meta({ id: "Error", description: "Any non-validation error of the JSON API" });
