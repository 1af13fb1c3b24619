// Content -> published records: only verified reviews, nothing under `private`, analysis attached.
import { aggregateRating } from "./aggregate.ts";
import { analyzeText } from "./analysis/analyze-text.ts";
import { buildMatcher, findMentions, type Mentions, nameWords } from "./analysis/mentions.ts";
import { compareNewest } from "./order.ts";
import type { BusinessContent, ReviewContent } from "./schemas/content.ts";
import type { ReviewRecord, ReviewsDataset } from "./schemas/published.ts";
import { catalogLookup, type ValidContent } from "./validate-content.ts";

export const DEFAULT_SOURCE = "direct";
export const DEFAULT_LANGUAGE = "en";

/** RFC 3339 in UTC without milliseconds, so equal instants compare equal as strings. */
export function toUtc(dateTime: string): string {
  return new Date(dateTime).toISOString().replace(/\.000Z$/, "Z");
}

type Catalog = Pick<BusinessContent, "technicians" | "services" | "service_areas">;

export function createReviewPublisher(business: Catalog) {
  const matcher = buildMatcher(business as BusinessContent);
  const names = nameWords(business);
  const lookups = {
    technicians: catalogLookup(business.technicians),
    services: catalogLookup(business.services),
    service_areas: catalogLookup(business.service_areas),
  };
  const order = (kind: keyof typeof lookups, ids: Set<string>) =>
    business[kind].map((e) => e.id).filter((id) => ids.has(id));

  /** The published record, and what its title and text name by themselves (before the content's tags). */
  return function publishReview(id: string, c: ReviewContent): { record: ReviewRecord; named: Mentions } {
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
      updated: toUtc(c.updated ?? `${c.date}T00:00:00Z`),
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
    return { record, named: found };
  };
}

export interface PublishedContent {
  dataset: ReviewsDataset;
  /** Per review id, the catalog entries its own words name (insights count these apart from tags). */
  namedInText: ReadonlyMap<string, Mentions>;
}

export type PublishReview = ReturnType<typeof createReviewPublisher>;

/** `publish` may answer from a cache of earlier results (the build's incremental cache); it must be equivalent. */
export function publishDataset(
  content: ValidContent,
  publish: PublishReview = createReviewPublisher(content.business),
): PublishedContent {
  const namedInText = new Map<string, Mentions>();
  const reviews = content.reviews
    .filter((r) => r.content.verified)
    .map((r) => {
      const { record, named } = publish(r.id, r.content);
      namedInText.set(r.id, named);
      return record;
    })
    .sort(compareNewest);
  return { dataset: { business: content.business, aggregate_rating: aggregateRating(reviews), reviews }, namedInText };
}
