// Examples of the success answers in the OpenAPI document, made by the functions that make the real answers (feeds,
// search, since, widget files, crawler files, MCP discovery) from a small sample of this build: two of its newest
// reviews and its insights cut to one entry per list. So an example has the shape and the values the service sends,
// and it follows every later change of a schema or of the code behind it. Only what the domain cannot make (the pages,
// which Astro renders; the widget's bundled script; an MCP answer, which the SDK writes) is written here by hand.
import { aggregateRating } from "./aggregate.ts";
import { renderAtomFeed } from "./feeds/atom-feed.ts";
import { renderJsonFeed } from "./feeds/json-feed.ts";
import { mcpCatalog, mcpServerCard } from "./mcp-discovery.ts";
import { renderLlmsTxt, renderRobots } from "./pages/crawler-files.ts";
import { PAGE_PATHS } from "./pages/site-paths.ts";
import { renderSitemaps } from "./pages/sitemap.ts";
import { SearchParams } from "./schemas/api.ts";
import type { Insights } from "./schemas/insights.ts";
import type { Business, ReviewRecord, ReviewsDataset } from "./schemas/published.ts";
import { buildReviewIndex } from "./search/review-index.ts";
import { searchReviews } from "./search/search-reviews.ts";
import { sincePage } from "./since.ts";
import { widgetFiles } from "./widget/widget-data.ts";
import { widgetDataPaths } from "./widget/widget-paths.ts";

/**
 * What the examples are made from: the newest published reviews (newest first; the first EXAMPLE_REVIEW_POOL are
 * enough) and the build's insights. The build and the reference page pass the same, so the document they render is
 * the same.
 */
export interface ExampleSource {
  reviews: readonly ReviewRecord[];
  insights: Insights;
}
export const EXAMPLE_REVIEW_POOL = 10;
const SAMPLE_SIZE = 2;
/** Sitemap entries kept in its example: the list pages come first, so a few show its form. */
const SITEMAP_URLS = 3;

/** A review's JSON past this many bytes is taken only when the pool has no shorter one. */
const SAMPLE_MAX_BYTES = 1500;

/**
 * Two reviews of the pool, newest first: short ones (examples stay small whatever one customer wrote) that show
 * the record's optional parts (a title, an aspect, an owner response) before bare ones.
 */
export function sampleReviews(newest: readonly ReviewRecord[]): ReviewRecord[] {
  const pool = newest.slice(0, EXAMPLE_REVIEW_POOL);
  const rank = new Map(
    pool.map((r) => {
      const bytes = JSON.stringify(r).length;
      const missing = Number(!r.title) + Number(r.aspects.length === 0) + Number(!r.response);
      return [r, [Number(bytes > SAMPLE_MAX_BYTES), missing, bytes]];
    }),
  );
  const order = (a: ReviewRecord, b: ReviewRecord) => {
    const [x, y] = [rank.get(a) ?? [], rank.get(b) ?? []];
    return x.map((v, i) => v - y[i]).find((d) => d !== 0) ?? 0;
  };
  const kept = new Set([...pool].sort(order).slice(0, SAMPLE_SIZE));
  return pool.filter((r) => kept.has(r));
}

/** The insights with the first entry of each list (and the first few of each entry's lists). */
function insightsExcerpt(insights: Insights): Insights {
  const { aspects, entities, topics, faq, summary } = insights;
  return {
    ...insights,
    aspects: aspects.slice(0, 1).map((a) => ({
      ...a,
      trend: a.trend.slice(-2),
      top_terms: a.top_terms.slice(0, 3),
      examples: a.examples.slice(0, 1),
    })),
    entities: {
      technicians: entities.technicians.slice(0, 1),
      services: entities.services.slice(0, 1),
      service_areas: entities.service_areas.slice(0, 1),
    },
    topics: topics.slice(0, 1).map((t) => ({ ...t, review_ids: t.review_ids.slice(0, 2) })),
    faq: { ...faq, items: faq.items.slice(0, 1) },
    summary: { ...summary, review_ids: summary.review_ids.slice(0, 2) },
  };
}

/** A page's start: Astro renders the pages, so their text is not the domain's to show. */
const HTML_EXAMPLE =
  '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>…</title>…</head>\n<body>…</body>\n</html>\n';
const WIDGET_SCRIPT_EXAMPLE =
  '…\nif (!customElements.get("reviews-widget")) customElements.define("reviews-widget", ReviewsWidget);\n';

/**
 * The technician the examples are about: one the sample's reviews mention, so that its widget files and pages have
 * reviews to show.
 */
export function exampleTechnician(business: Business, source: ExampleSource): string | undefined {
  const mentioned = new Set(sampleReviews(source.reviews).flatMap((r) => r.mentions.technicians));
  return (business.technicians.find((t) => mentioned.has(t.id)) ?? business.technicians[0])?.id;
}

/** The example of each success answer with a body, by operationId (text/html answers take HTML_EXAMPLE). */
export function answerExamples(
  business: Business,
  baseUrl: string,
  version: string,
  source: ExampleSource,
): Record<string, unknown> {
  const reviews = sampleReviews(source.reviews);
  const dataset: ReviewsDataset = { business, aggregate_rating: aggregateRating(reviews), reviews };
  const insights = insightsExcerpt(source.insights);
  const index = buildReviewIndex(business, reviews);
  const search = searchReviews(index, SearchParams.parse({ limit: "1" }));
  const oldest = reviews.at(-1)?.date ?? "2025-06-01";
  const since = sincePage(index, { date: oldest, limit: 1 });
  const widget = widgetFiles(baseUrl, dataset);
  const technician = exampleTechnician(business, source);
  const entity = widgetDataPaths(technician ? { kind: "technician", id: technician } : undefined);
  const json = (path: string) => JSON.parse(widget.get(path) ?? "null");
  const sitemap = (
    renderSitemaps({ baseUrl, dataset, insights, reviewCount: reviews.length, allReviews: () => reviews }).get(
      PAGE_PATHS.sitemap,
    ) ?? ""
  ).split("\n");
  return {
    getReviewsDataset: dataset,
    getInsights: insights,
    getJsonFeed: renderJsonFeed(dataset, baseUrl),
    getAtomFeed: renderAtomFeed(dataset, baseUrl),
    getOpenApi: {
      openapi: "3.1.0",
      info: { title: `${business.name} reviews API`, version },
      servers: [{ url: baseUrl }],
    },
    getSitemap: [...sitemap.slice(0, 2 + SITEMAP_URLS), ...sitemap.slice(-2)].join("\n"),
    getRobots: renderRobots(baseUrl),
    getLlmsTxt: renderLlmsTxt(dataset, baseUrl),
    getWidgetScript: WIDGET_SCRIPT_EXAMPLE,
    getWidgetSummary: json(widgetDataPaths().summary),
    getWidgetReviews: json(widgetDataPaths().reviews),
    getWidgetEntitySummary: json(entity.summary),
    getWidgetEntityReviews: json(entity.reviews),
    searchReviews: search.ok ? search.result : undefined,
    reviewsSince: since.ok
      ? { ...since.page.envelope, reviews: Array.from(since.page.ranks, (rank) => index.review(rank)) }
      : undefined,
    mcpRequest: {
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: { tools: {}, resources: {}, prompts: {} },
        serverInfo: { name: "reviews-publication-service", title: "Verified customer reviews", version },
      },
    },
    getMcpCatalog: mcpCatalog(baseUrl),
    getMcpServerCard: mcpServerCard(baseUrl, version),
  };
}

type Operation = {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { example?: unknown }> }>;
};

/** The bytes a 206 example shows: those of `Range: bytes=0-9`. */
const RANGE_EXAMPLE_BYTES = 10;

/** The first bytes of a file whose whole answer is `whole`, as a 206 sends them. */
function rangeExample(whole: unknown): string | undefined {
  if (whole === undefined) return undefined;
  const text = typeof whole === "string" ? whole : JSON.stringify(whole);
  return Buffer.from(text).subarray(0, RANGE_EXAMPLE_BYTES).toString();
}

/**
 * Sets the example of every answer with a body that has none: by operation, HTML by media type; a 206 shows the
 * first bytes of the operation's whole answer.
 */
export function addAnswerExamples(paths: Record<string, Record<string, Operation>>, examples: Record<string, unknown>) {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (media.example !== undefined) continue;
          if (status === "206") {
            const whole = type === "text/html" ? HTML_EXAMPLE : op.operationId && examples[op.operationId];
            media.example = rangeExample(whole || undefined);
          } else if (type === "text/html") media.example = HTML_EXAMPLE;
          else if (Number(status) < 300 && op.operationId && examples[op.operationId] !== undefined) {
            media.example = examples[op.operationId];
          }
        }
      }
    }
  }
}
