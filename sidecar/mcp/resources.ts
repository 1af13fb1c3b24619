// Resources: the published files, and a template for one review.
import { ResourceNotFoundError } from "@modelcontextprotocol/server";
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
      description: "Business, aggregate rating and every verified review, newest first.",
    },
    {
      path: "/insights.json",
      name: "insights",
      title: "Insights",
      description: "Aspect-based sentiment, entities, topics, FAQ and summary.",
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
  return { contents: [{ uri, mimeType: known.mimeType, text: file.identity.read().toString("utf8") }] };
}

/** decodeURIComponent, or undefined for a malformed escape (a client's mistake, not the server's). */
function decodedOrUndefined(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
