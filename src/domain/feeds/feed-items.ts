// What both feeds say about one review: a title, an HTML rendering and links. Feeds never carry generated text.
import { reviewPath, SERVICE_PATHS } from "../pages/site-paths.ts";
import type { Business, ReviewRecord } from "../schemas/published.ts";
import { escapeHtml } from "./escape.ts";

export const FEED_SIZE = 50;

/** The published data files' URL paths (the build writes them, src/build/site-files.ts). */
export const DATA_PATHS = { atom: "/feed.xml", json: "/api/feed.json", dataset: "/reviews.json" } as const;

export const feedUrls = (baseUrl: string) => ({
  atom: `${baseUrl}${DATA_PATHS.atom}`,
  json: `${baseUrl}${DATA_PATHS.json}`,
  dataset: `${baseUrl}${DATA_PATHS.dataset}`,
  hub: `${baseUrl}${SERVICE_PATHS.hub}`,
  home: `${baseUrl}/`,
});

/** The review's permalink: JSON Feed `url`, Atom `alternate`, JSON-LD `url`, search results and the pages. */
export function reviewUrl(baseUrl: string, id: string): string {
  return `${baseUrl}${reviewPath(id)}`;
}

/**
 * The item's identity in both feeds. It keeps the form it had before permalinks existed, so that readers do not see
 * every item again as a new one; it is an identifier, not a link (the link is `reviewUrl`).
 */
export function feedItemId(baseUrl: string, id: string): string {
  return `${baseUrl}/#review-${encodeURIComponent(id)}`;
}

export function feedTitle(business: Business): string {
  return `${business.name}: customer reviews`;
}

export function itemTitle(r: ReviewRecord): string {
  const stars = `${r.rating}/5`;
  return r.title ? `${stars}: ${r.title}` : `${stars} from ${r.author}`;
}

/** Paragraphs at blank lines, line breaks within them; CRLF and CR line ends count as LF. */
function paragraphs(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

export function itemText(r: ReviewRecord, business: Business): string {
  const lines = [`Rating: ${r.rating} of 5`, r.text];
  if (r.response) lines.push(`Response from ${business.name} (${r.response.date}): ${r.response.text}`);
  return lines.filter(Boolean).join("\n\n");
}

export function itemHtml(r: ReviewRecord, business: Business): string {
  const parts = [`<p>Rating: ${r.rating} of 5</p>`, paragraphs(r.text)];
  if (r.response) {
    parts.push(
      `<blockquote><p>Response from ${escapeHtml(business.name)} (${r.response.date}):</p>${paragraphs(r.response.text)}</blockquote>`,
    );
  }
  return parts.join("");
}

export function itemTags(r: ReviewRecord): string[] {
  return [
    `rating:${r.rating}`,
    ...r.mentions.services.map((s) => `service:${s}`),
    ...r.mentions.technicians.map((t) => `technician:${t}`),
    ...r.mentions.service_areas.map((a) => `area:${a}`),
  ];
}

export function publishedAt(r: ReviewRecord): string {
  return `${r.date}T00:00:00Z`;
}
