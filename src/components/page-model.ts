// What the page shows, derived from the published data (pure; the .astro files only render it).
import { reviewUrl } from "../domain/feeds/feed-items.ts";
import { ASPECT_LABELS } from "../domain/insights/aspect-insights.ts";
import { ENTITY_KINDS, type EntityKind, entityPath } from "../domain/pages/site-paths.ts";
import type { Insights } from "../domain/schemas/insights.ts";
import type { Business, ReviewRecord, ReviewsDataset } from "../domain/schemas/published.ts";

export const NEWEST_ON_PAGE = 20;

export function catalogNames(business: Business) {
  const names = new Map<string, string>();
  for (const e of [...business.services, ...business.technicians, ...business.service_areas]) names.set(e.id, e.name);
  return names;
}

/** The catalogue entries a review mentions, each linked to its page. */
export function chips(r: ReviewRecord, names: Map<string, string>): { kind: string; label: string; href: string }[] {
  return (Object.keys(ENTITY_KINDS) as EntityKind[]).flatMap((kind) =>
    r.mentions[ENTITY_KINDS[kind].field].map((id) => ({
      kind,
      label: names.get(id) ?? id,
      href: entityPath(kind, id),
    })),
  );
}

export function aspectBars(insights: Insights) {
  return insights.aspects
    .filter((a) => a.mentions > 0)
    .sort((a, b) => b.mentions - a.mentions)
    .map((a) => ({
      aspect: a.aspect,
      label: ASPECT_LABELS[a.aspect],
      positive: a.share_positive,
      negative: a.share_negative,
      mentions: a.mentions,
    }));
}

/**
 * `text` cut into pieces, `mark` on those inside one of `quotes` (each its first occurrence), for a review whose
 * aspects a visitor filtered on: the words behind the chip are highlighted.
 */
export function highlightQuotes(text: string, quotes: readonly string[]): { text: string; mark: boolean }[] {
  const spans = quotes
    .filter((q) => q.length > 0)
    .map((q) => [text.indexOf(q), text.indexOf(q) + q.length] as const)
    .filter(([from]) => from >= 0)
    .sort((a, b) => a[0] - b[0]);
  const parts: { text: string; mark: boolean }[] = [];
  let at = 0;
  for (const [from, to] of spans) {
    if (to <= at) continue;
    if (from > at) parts.push({ text: text.slice(at, from), mark: false });
    parts.push({ text: text.slice(Math.max(at, from), to), mark: true });
    at = to;
  }
  if (at < text.length) parts.push({ text: text.slice(at), mark: false });
  return parts;
}

const entryPoint = (url: string) => ({ "@type": "EntryPoint", urlTemplate: url });

/** schema.org JSON-LD: the business, its rating and the reviews shown. Generated text is never a Review. */
export function jsonLd(
  dataset: Pick<ReviewsDataset, "business" | "aggregate_rating">,
  shown: readonly ReviewRecord[],
  baseUrl: string,
) {
  const { business: b, aggregate_rating: agg } = dataset;
  return {
    "@context": "https://schema.org",
    "@type": b.schema_type ?? "LocalBusiness",
    "@id": `${baseUrl}/#business`,
    name: b.name,
    url: b.url,
    ...(b.description ? { description: b.description } : {}),
    ...(b.telephone ? { telephone: b.telephone } : {}),
    ...(b.email ? { email: b.email } : {}),
    ...(b.logo ? { logo: b.logo } : {}),
    ...(b.logo || b.photos?.length
      ? { image: [...(b.logo ? [b.logo] : []), ...(b.photos ?? []).map((p) => p.src)] }
      : {}),
    ...(b.price_range ? { priceRange: b.price_range } : {}),
    ...(b.opening_hours ? { openingHours: b.opening_hours } : {}),
    ...(b.same_as ? { sameAs: b.same_as } : {}),
    ...(b.booking_url || b.review_url
      ? {
          potentialAction: [
            ...(b.booking_url ? [{ "@type": "ReserveAction", target: entryPoint(b.booking_url) }] : []),
            ...(b.review_url ? [{ "@type": "ReviewAction", target: entryPoint(b.review_url) }] : []),
          ],
        }
      : {}),
    address: {
      "@type": "PostalAddress",
      streetAddress: b.address.street_address,
      addressLocality: b.address.locality,
      addressRegion: b.address.region,
      postalCode: b.address.postal_code,
      addressCountry: b.address.country,
    },
    ...(b.geo ? { geo: { "@type": "GeoCoordinates", latitude: b.geo.latitude, longitude: b.geo.longitude } } : {}),
    areaServed: b.service_areas.map((a) => ({ "@type": "City", name: a.name })),
    makesOffer: b.services.map((s) => ({ "@type": "Offer", itemOffered: { "@type": "Service", name: s.name } })),
    ...(agg.review_count > 0
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: agg.rating_value,
            reviewCount: agg.review_count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
    review: shown.map((r) => ({
      "@type": "Review",
      url: reviewUrl(baseUrl, r.id),
      author: { "@type": "Person", name: r.author },
      datePublished: r.date,
      ...(r.title ? { name: r.title } : {}),
      ...(r.text ? { reviewBody: r.text } : {}),
      reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 },
    })),
  };
}

/** JSON for a <script> element: "<" escaped so that no text can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}
