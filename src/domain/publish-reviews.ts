// Content -> published records: only verified reviews, nothing under `private`, analysis attached.

import {
  analyzeText,
  buildMatcher,
  findMentions,
  type Mentions,
  nameWords,
  type ReviewLabel,
} from "@rps/review-analysis";
import { aggregateRating } from "./aggregate.ts";
import { boundedMemo } from "./bounded-memo.ts";
import { type AuthorNamePolicy, formatAuthorName } from "./import/author-name.ts";
import { compareNewest } from "./order.ts";
import { type ContactFinding, guardContactDetails } from "./pii/guard-reviews.ts";
import { DEFAULT_PII_POLICY, type PiiPolicy } from "./pii/policy.ts";
import type { BusinessContent, ReviewContent } from "./schemas/content.ts";
import { DEFAULT_LANGUAGE, type ReviewRecord, type ReviewsDataset } from "./schemas/published.ts";
import { catalogLookups, type ValidContent } from "./validate-content.ts";

export const DEFAULT_SOURCE = "direct";

/** RFC 3339 in UTC without milliseconds, so equal instants compare equal as strings. */
export function toUtc(dateTime: string): string {
  return new Date(dateTime).toISOString().replace(/\.000Z$/, "Z");
}

/** The published `updated`: the latest of the review's own and its owner response's date (DECISIONS.md). */
export function latestUpdate(
  c: Pick<ReviewContent, "date" | "updated" | "response">,
  utc: (dateTime: string) => string = toUtc,
): string {
  const own = utc(c.updated ?? `${c.date}T00:00:00Z`);
  if (!c.response) return own;
  const response = utc(`${c.response.date}T00:00:00Z`);
  return [own, response].sort()[1];
}

/** Date-times remembered per publisher (reviews share their days): parsing a date was 1-2% of analysing a review. */
const UTC_MEMO_MAX = 50_000;

type Catalog = Pick<BusinessContent, "technicians" | "services" | "service_areas">;

export function createReviewPublisher(business: Catalog) {
  const matcher = buildMatcher(business as BusinessContent);
  const names = nameWords(business);
  const lookups = catalogLookups(business);
  const utc = boundedMemo(toUtc, UTC_MEMO_MAX);
  const order = (kind: keyof typeof lookups, ids: Set<string>) =>
    business[kind].map((e) => e.id).filter((id) => ids.has(id));

  /** The published record, and what its title and text name by themselves (before the content's tags). */
  return function publishReview(
    id: string,
    c: ReviewContent,
  ): { record: ReviewRecord; named: Mentions; label: ReviewLabel } {
    const found = findMentions(matcher, [c.title ?? "", c.text].join("\n"));
    const mentions = {} as ReviewRecord["mentions"];
    for (const kind of ["technicians", "services", "service_areas"] as const) {
      const ids = new Set<string>(found[kind]);
      for (const ref of c[kind] ?? []) {
        const resolved = lookups[kind](ref);
        if (resolved) ids.add(resolved);
      }
      mentions[kind] = order(kind, ids);
    }
    const analysis = analyzeText(c.title ? [c.title, c.text] : [c.text], names);
    const record: ReviewRecord = {
      id,
      rating: c.rating,
      date: c.date,
      updated: latestUpdate(c, utc),
      ...(c.title ? { title: c.title } : {}),
      text: c.text,
      author: c.author,
      source: c.source ?? DEFAULT_SOURCE,
      language: c.language ?? DEFAULT_LANGUAGE,
      ...(c.response ? { response: { text: c.response.text, date: c.response.date } } : {}),
      mentions,
      sentiment: analysis.sentiment,
      aspects: analysis.aspects,
    };
    return { record, named: found, label: analysis.overall };
  };
}

export interface PublishedContent {
  dataset: ReviewsDataset;
  /** Per review id, the catalog entries its own words name (insights count these apart from tags). */
  namedInText: ReadonlyMap<string, Mentions>;
  /** Per review id, the insights' review label (`mixed` included; the record keeps positive/neutral/negative). */
  reviewLabels: ReadonlyMap<string, ReviewLabel>;
  /** Published review files in which customers' contact details were found (and, unless `off`, redacted). */
  contactDetails: ContactFinding[];
}

export type PublishReview = ReturnType<typeof createReviewPublisher>;

/**
 * The verified reviews (the only ones ever published) with customers' contact details handled by `policy`:
 * redacted, refused (a ContentError naming the files) or left (`off`). Runs before any analysis or caching.
 */
export function guardContent(
  content: ValidContent,
  policy: PiiPolicy = DEFAULT_PII_POLICY,
  /** Reviews found free of contact details before (guardContactDetails). */
  knownClean?: (review: ValidContent["reviews"][number]) => boolean,
): { content: ValidContent; findings: ContactFinding[] } {
  const verified = content.reviews.filter((r) => r.content.verified);
  const guarded = guardContactDetails(verified, content.business, policy, knownClean);
  return { content: { ...content, reviews: guarded.reviews }, findings: guarded.findings };
}

/**
 * The verified reviews with their authors' names written by `policy` (AUTHOR_NAME_SCOPE=all): like the contact
 * details, before any analysis or caching, so every output and every cached record has the published name.
 */
export function nameAuthors(content: ValidContent, policy: AuthorNamePolicy): ValidContent {
  if (policy === "full") return content;
  const reviews = content.reviews.map((r) => {
    const author = formatAuthorName(r.content.author, policy);
    return author === r.content.author ? r : { ...r, content: { ...r.content, author } };
  });
  return { ...content, reviews };
}

/**
 * Every output is made from these records, so redacting here covers datasets, feeds, pages, search and MCP.
 * `publish` may answer from a cache of earlier results (the build's incremental cache, filled from content that
 * was guarded the same way); it must be equivalent. Guarding content that is already guarded changes nothing.
 */
export function publishDataset(
  content: ValidContent,
  options: { publish?: PublishReview; piiPolicy?: PiiPolicy } = {},
): PublishedContent {
  const publish = options.publish ?? createReviewPublisher(content.business);
  const namedInText = new Map<string, Mentions>();
  const reviewLabels = new Map<string, ReviewLabel>();
  const guarded = guardContent(content, options.piiPolicy);
  const reviews = guarded.content.reviews
    .map((r) => {
      const { record, named, label } = publish(r.id, r.content);
      namedInText.set(r.id, named);
      reviewLabels.set(r.id, label);
      return record;
    })
    .sort(compareNewest);
  return {
    dataset: { business: content.business, aggregate_rating: aggregateRating(reviews), reviews },
    namedInText,
    reviewLabels,
    contactDetails: guarded.findings,
  };
}
