// Atom (RFC 4287). Feed <updated> is the newest review change, never the build time, so builds are reproducible.

import { JSON_FEED_LINK_TYPE } from "../media-types.ts";
import { newestUpdated } from "../order.ts";
import { DEFAULT_LANGUAGE, type ReviewsDataset } from "../schemas/published.ts";
import { escapeXml as x } from "./escape.ts";
import {
  FEED_SIZE,
  feedItemId,
  feedTitle,
  feedUrls,
  itemHtml,
  itemTags,
  itemTitle,
  publishedAt,
  reviewUrl,
} from "./feed-items.ts";

const EPOCH = "1970-01-01T00:00:00Z";

export function renderAtomFeed(dataset: ReviewsDataset, baseUrl: string): string {
  const urls = feedUrls(baseUrl);
  const { business } = dataset;
  const items = dataset.reviews.slice(0, FEED_SIZE);
  const entries = items.map((r) => {
    const url = reviewUrl(baseUrl, r.id);
    const categories = itemTags(r)
      .map((t) => `    <category term="${x(t)}"/>`)
      .join("\n");
    // xml:lang only where the review's language differs from the feed's (RFC 4287 §2, XML 1.0 §2.12).
    const lang = r.language === DEFAULT_LANGUAGE ? "" : ` xml:lang="${x(r.language)}"`;
    return [
      `  <entry${lang}>`,
      `    <id>${x(feedItemId(baseUrl, r.id))}</id>`,
      `    <title type="text">${x(itemTitle(r))}</title>`,
      `    <link rel="alternate" type="text/html" href="${x(url)}"/>`,
      `    <published>${publishedAt(r)}</published>`,
      `    <updated>${r.updated}</updated>`,
      `    <author><name>${x(r.author)}</name></author>`,
      categories,
      `    <content type="html">${x(itemHtml(r, business))}</content>`,
      "  </entry>",
    ]
      .filter(Boolean)
      .join("\n");
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${DEFAULT_LANGUAGE}">`,
    `  <id>${x(urls.atom)}</id>`,
    `  <title type="text">${x(feedTitle(business))}</title>`,
    business.description ? `  <subtitle type="text">${x(business.description)}</subtitle>` : "",
    `  <updated>${newestUpdated(items) ?? EPOCH}</updated>`,
    `  <author><name>${x(business.name)}</name><uri>${x(business.url)}</uri></author>`,
    `  <link rel="self" type="application/atom+xml" href="${x(urls.atom)}"/>`,
    `  <link rel="hub" href="${x(urls.hub)}"/>`,
    `  <link rel="alternate" type="text/html" href="${x(urls.home)}"/>`,
    // One alternate (the page) so readers take it as the site's address; the JSON Feed is the same items as JSON.
    `  <link rel="related" type="${JSON_FEED_LINK_TYPE}" href="${x(urls.json)}"/>`,
    ...entries,
    "</feed>",
    "",
  ]
    .filter((l) => l !== "")
    .join("\n")
    .concat("\n");
}
