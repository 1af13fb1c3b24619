import type { JsonFeed, ReviewsDataset } from "../schemas/published.ts";
import {
  FEED_SIZE,
  feedItemId,
  feedTitle,
  feedUrls,
  itemHtml,
  itemTags,
  itemText,
  itemTitle,
  publishedAt,
  reviewUrl,
} from "./feed-items.ts";

export function renderJsonFeed(dataset: ReviewsDataset, baseUrl: string): JsonFeed {
  const urls = feedUrls(baseUrl);
  const { business } = dataset;
  return {
    version: "https://jsonfeed.org/version/1.1",
    title: feedTitle(business),
    home_page_url: urls.home,
    feed_url: urls.json,
    ...(business.description ? { description: business.description } : {}),
    language: "en",
    hubs: [{ type: "WebSub", url: urls.hub }],
    items: dataset.reviews.slice(0, FEED_SIZE).map((r) => ({
      id: feedItemId(baseUrl, r.id),
      url: reviewUrl(baseUrl, r.id),
      title: itemTitle(r),
      content_text: itemText(r, business),
      content_html: itemHtml(r, business),
      date_published: publishedAt(r),
      date_modified: r.updated,
      authors: [{ name: r.author }],
      tags: itemTags(r),
      language: r.language,
      _review: { rating: r.rating, best_rating: 5, mentions: r.mentions, sentiment: r.sentiment },
    })),
  };
}
