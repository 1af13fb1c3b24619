// Resources: the published files, and a template for one review. A read answers at most MCP_ANSWER_MAX_BYTES:
// a file larger than that (reviews.json at any real size) answers with a first page or a note, each naming the
// file's URL to download it whole and the tools that page through it.
import { ResourceNotFoundError } from "@modelcontextprotocol/server";
import { MCP_ANSWER_MAX_BYTES, MCP_PAGE_REVIEW_BYTES } from "../../src/domain/limits.ts";
import { pageEnd } from "../../src/domain/search/review-index.ts";
import { reviewListBody } from "../build-store/review-list-body.ts";
import type { Snapshot } from "../build-store/snapshot.ts";

export const REVIEW_TEMPLATE = "reviews://review/{id}";

export const resourceTemplates = [
  {
    uriTemplate: REVIEW_TEMPLATE,
    name: "review",
    title: "One review",
    description: "A verified review by id, as JSON",
    mimeType: "application/json",
  },
];

export function staticResources(baseUrl: string) {
  return [
    {
      path: "/reviews.json",
      name: "reviews-dataset",
      title: "Reviews dataset",
      description:
        "Business, aggregate rating and every verified review, newest first. Read here: the newest reviews and the file's URL (the whole file is usually far larger than an MCP answer); page with search_reviews or get_reviews_since.",
      tools: "search_reviews (newest first) or get_reviews_since",
    },
    {
      path: "/insights.json",
      name: "insights",
      title: "Insights",
      description: "Aspect-based sentiment, entities, topics, FAQ and summary.",
      tools: "get_insights with a section",
    },
    {
      path: "/api/feed.json",
      name: "json-feed",
      title: "JSON Feed",
      description: "The 50 newest reviews as JSON Feed 1.1.",
    },
    {
      path: "/.well-known/openapi.json",
      name: "openapi",
      title: "OpenAPI document",
      description: "The HTTP API of this service, OpenAPI 3.1.",
    },
  ].map((r) => ({ ...r, uri: `${baseUrl}${r.path}`, mimeType: "application/json" }));
}

/** resources/list: each resource with its size and media type in the current build. */
export function listResources(snapshot: Snapshot, baseUrl: string) {
  return staticResources(baseUrl).flatMap(({ path, tools: _t, ...r }) => {
    const file = snapshot.files.get(path);
    return file ? [{ ...r, size: file.identity.size }] : [];
  });
}

/** Room left in a read's answer for the JSON-RPC and resource envelopes around the text. */
const TEXT_MAX_BYTES = MCP_ANSWER_MAX_BYTES - 2048;

/** reviews.json too large to send: the business, its rating, the newest reviews that fit, and where the rest is. */
function datasetFirstPage(snapshot: Snapshot, uri: string): string {
  const { index } = snapshot;
  const end = pageEnd(index, (rank) => rank, 0, index.count, MCP_PAGE_REVIEW_BYTES);
  const ranks = Array.from({ length: end }, (_, rank) => rank);
  const envelope = {
    business: snapshot.dataset.business,
    aggregate_rating: snapshot.dataset.aggregate_rating,
    total: index.count,
    count: ranks.length,
    next: `The ${ranks.length} newest of ${index.count} reviews. The whole file is at ${uri}; page through the rest with search_reviews (newest first) or get_reviews_since.`,
  };
  return reviewListBody(snapshot, envelope, ranks).toString("utf8");
}

export function readResource(snapshot: Snapshot, baseUrl: string, uri: string) {
  const review = /^reviews:\/\/review\/(.+)$/.exec(uri);
  if (review) {
    const id = decodedOrUndefined(review[1]);
    if (id === undefined) throw new ResourceNotFoundError(uri, `The review id in ${uri} is not valid percent-encoding`);
    const r = snapshot.index.byId.get(id);
    if (!r) throw new ResourceNotFoundError(uri, `No published review has the id ${id}`);
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(r) }] };
  }
  const known = staticResources(baseUrl).find((r) => r.uri === uri);
  const file = known && snapshot.files.get(known.path);
  if (!known || !file) throw new ResourceNotFoundError(uri, `Unknown resource ${uri}; resources/list names them`);
  const size = file.identity.size;
  let text: string;
  if (size <= TEXT_MAX_BYTES) text = file.identity.read().toString("utf8");
  else if (known.path === "/reviews.json") text = datasetFirstPage(snapshot, uri);
  else
    text = JSON.stringify({
      size,
      url: uri,
      note: `This file is ${size} bytes, more than an MCP answer holds (${MCP_ANSWER_MAX_BYTES}); download it from url${known.tools ? `, or use ${known.tools}` : ""}.`,
    });
  return { contents: [{ uri, mimeType: known.mimeType, text }] };
}

/** decodeURIComponent, or undefined for a malformed escape (a client's mistake, not the server's). */
function decodedOrUndefined(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
