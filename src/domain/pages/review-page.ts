// A review's permalink page: its schema.org Review and the text for its meta tags.
import { closeBidi } from "../bidi.ts";
import { reviewUrl } from "../feeds/feed-items.ts";
import type { Business, ReviewRecord } from "../schemas/published.ts";

export const DESCRIPTION_MAX_CHARS = 160;

/** The review's own title, or what stands in for it (a heading and a link text are never empty). */
export function reviewHeading(r: ReviewRecord): string {
  return r.title ?? `${r.rating}-star review by ${r.author}`;
}

export function reviewTitle(r: ReviewRecord, business: Business): string {
  return `${closeBidi(reviewHeading(r))} · ${business.name}`;
}

export function reviewDescription(r: ReviewRecord, business: Business): string {
  const text = (r.text || `${r.rating} out of 5 stars, no text.`).replace(/\s+/g, " ").trim();
  const lead = `${r.rating}/5 from ${closeBidi(r.author)} for ${business.name}: `;
  const room = DESCRIPTION_MAX_CHARS - lead.length;
  return lead + closeBidi(text.length > room ? `${text.slice(0, room - 1).trimEnd()}…` : text);
}

/** schema.org Review of the business (linked by @id to the home page's LocalBusiness). */
export function reviewJsonLd(r: ReviewRecord, business: Business, baseUrl: string) {
  return {
    "@context": "https://schema.org",
    "@type": "Review",
    "@id": reviewUrl(baseUrl, r.id),
    url: reviewUrl(baseUrl, r.id),
    itemReviewed: {
      "@type": business.schema_type ?? "LocalBusiness",
      "@id": `${baseUrl}/#business`,
      name: business.name,
      url: business.url,
      address: {
        "@type": "PostalAddress",
        streetAddress: business.address.street_address,
        addressLocality: business.address.locality,
        addressRegion: business.address.region,
        postalCode: business.address.postal_code,
        addressCountry: business.address.country,
      },
    },
    author: { "@type": "Person", name: r.author },
    datePublished: r.date,
    dateModified: r.updated,
    inLanguage: r.language,
    ...(r.title ? { name: r.title } : {}),
    ...(r.text ? { reviewBody: r.text } : {}),
    reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 },
    ...(r.response
      ? {
          comment: {
            "@type": "Comment",
            text: r.response.text,
            dateCreated: r.response.date,
            author: { "@type": "Organization", name: business.name },
          },
        }
      : {}),
  };
}
