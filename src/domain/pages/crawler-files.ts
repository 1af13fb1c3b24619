// robots.txt (RFC 9309) and llms.txt (llmstxt.org): what crawlers and AI agents may read, and where.
import { FEED_SIZE, feedUrls } from "../feeds/feed-items.ts";
import { JSON_FEED_LINK_TYPE } from "../media-types.ts";
import type { ReviewsDataset } from "../schemas/published.ts";
import { ENTITY_KINDS, PAGE_PATHS, SERVICE_PATHS } from "./site-paths.ts";

/**
 * Search result pages and the filtered and sorted review lists (/reviews/?…) are endless combinations of filters
 * (tens of thousands for the sample's catalog): crawlers get the sitemap's pages instead. Rules match by prefix
 * (RFC 9309), so `/reviews/?` leaves /reviews/, its numbered pages and every review's page open.
 */
export function renderRobots(baseUrl: string): string {
  return [
    "User-agent: *",
    `Disallow: ${PAGE_PATHS.search}`,
    `Disallow: ${PAGE_PATHS.reviews}?`,
    "Disallow: /api/reviews/",
    "Disallow: /mcp",
    "Allow: /",
    "",
    `Sitemap: ${baseUrl}${PAGE_PATHS.sitemap}`,
    "",
  ].join("\n");
}

export function renderLlmsTxt(dataset: Pick<ReviewsDataset, "business" | "aggregate_rating">, baseUrl: string): string {
  const { business: b, aggregate_rating: agg } = dataset;
  const urls = feedUrls(baseUrl);
  const u = (path: string) => `${baseUrl}${path}`;
  return [
    `# ${b.name}: verified customer reviews`,
    "",
    `> ${agg.review_count} verified customer reviews of ${b.name} (${b.address.locality}, ${b.address.region}), ${agg.rating_value} out of 5 on average, with aspect-based sentiment insights. Public and read-only: no key, no account.`,
    "",
    "Every review has a permalink page; technicians, services and service areas have pages with their reviews.",
    "Generated text (summaries, FAQ marked as generated) is computed from the reviews and is not a review.",
    "",
    "## Datasets",
    "",
    `- [All reviews](${urls.dataset}): business, aggregate rating and every verified review, newest first (JSON)`,
    `- [Insights](${u(SERVICE_PATHS.insights)}): aspects, entities, topics, FAQ and summary (JSON)`,
    "",
    "## Feeds",
    "",
    `- [JSON Feed](${urls.json}): the ${FEED_SIZE} newest reviews, JSON Feed 1.1 served as ${JSON_FEED_LINK_TYPE}`,
    `- [Atom feed](${urls.atom}): the same reviews as Atom`,
    `- WebSub hub at ${urls.hub}: subscribe with an HTTPS callback to any of the two feeds or the dataset and receive the full content when reviews change`,
    "",
    "## APIs",
    "",
    `- [OpenAPI description](${u(SERVICE_PATHS.openapi)}): search (${u(SERVICE_PATHS.searchApi)}) and since (${u(SERVICE_PATHS.sinceApi)}) endpoints, every parameter and error`,
    `- [API reference](${u(PAGE_PATHS.apiReference)}): the same document as a page for people, every operation with its parameters, examples and answers`,
    `- MCP endpoint: ${u(SERVICE_PATHS.mcp)} (Model Context Protocol over streamable HTTP, JSON-RPC 2.0): tools get_business, search_reviews, get_review, get_reviews_since, get_insights; no authentication`,
    "",
    "## Pages",
    "",
    `- [Home](${urls.home}): rating, insights and the newest reviews`,
    `- [All reviews](${u(PAGE_PATHS.reviews)}): newest first, paginated`,
    ...Object.values(ENTITY_KINDS).map((k) => `- [${k.plural}](${u(k.path)}): one page each, with their reviews`),
    `- [Sitemap](${u(PAGE_PATHS.sitemap)}): every page above`,
    "",
  ].join("\n");
}
