// The OpenAPI 3.1 document: paths written here, every schema generated from the zod schemas.
import * as z from "zod";
import "./schemas/published.ts";
import "./schemas/insights.ts";
import { feedUrls } from "./feeds/feed-items.ts";
import { ErrorBody, IssuesBody, SearchParams, SearchResult, SinceParams, SinceResult } from "./schemas/api.ts";
import type { Business } from "./schemas/published.ts";

export const API_VERSION = "1.0.0";

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const idOf = (schema: z.ZodType) => z.globalRegistry.get(schema)?.id as string;

const stringHeader = (description: string) => ({ description, schema: { type: "string" } });
const headers = {
  ETag: stringHeader("Strong validator: a hash of the response body (per content encoding)"),
  "Last-Modified": stringHeader("The newest `updated` of the reviews behind the response"),
  "Cache-Control": stringHeader("Caching policy for browsers and CDNs"),
  "Access-Control-Allow-Origin": stringHeader("Always `*`"),
  Vary: stringHeader("`Accept-Encoding`"),
};
const jsonError = (description: string) => ({
  description,
  content: { "application/json": { schema: ref(idOf(ErrorBody)) } },
});
const issues400 = {
  description:
    "Invalid parameters: out of range, not a number, impossible date, since after until, repeated or unknown parameter, bad cursor. One issue per problem.",
  content: { "application/json": { schema: ref(idOf(IssuesBody)) } },
};
const notModified = {
  description: "The validator in If-None-Match (preferred) or If-Modified-Since matches; no body",
  headers: { ETag: headers.ETag, "Last-Modified": headers["Last-Modified"] },
};
const conditionalParams = [
  { name: "If-None-Match", in: "header", required: false, schema: { type: "string" } },
  { name: "If-Modified-Since", in: "header", required: false, schema: { type: "string" } },
];

function staticGet(summary: string, description: string, mediaType: string, schema: object) {
  return {
    get: {
      summary,
      description,
      tags: ["datasets"],
      parameters: conditionalParams,
      responses: {
        200: { description: "The resource", headers, content: { [mediaType]: { schema } } },
        304: notModified,
        414: { $ref: "#/components/responses/UriTooLong" },
      },
    },
  };
}

function queryParameters(schema: z.ZodObject) {
  const json = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" }) as {
    properties: Record<string, { description?: string }>;
  };
  return Object.entries(json.properties).map(([name, s]) => {
    const { description, ...rest } = s;
    return { name, in: "query", required: false, description, schema: rest };
  });
}

export function renderOpenApi(business: Business, baseUrl: string, extraPaths: Record<string, object> = {}) {
  const urls = feedUrls(baseUrl);
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    uri: (id) => `#/components/schemas/${id}`,
    target: "draft-2020-12",
  });
  for (const s of Object.values(schemas)) delete (s as { $schema?: string }).$schema;
  return {
    openapi: "3.1.0",
    info: {
      title: `${business.name} reviews API`,
      version: API_VERSION,
      summary: "Public, read-only verified customer reviews: datasets, feeds, search, MCP and a WebSub hub.",
      description: [
        "No authentication; an Authorization header is ignored. Every read endpoint sends `Access-Control-Allow-Origin: *`,",
        "supports HEAD, and answers conditional requests (If-None-Match wins over If-Modified-Since) with 304.",
        "Errors of the JSON API are JSON: 400 `{issues}` for invalid parameters, 404/405/413/414/431/500 `{error, message}`.",
        "Limits: URLs up to 2048 bytes, request headers up to 16 KiB, MCP bodies up to 64 KiB, `query` 1 to 200 characters,",
        "`limit` 1 to 100 (default 20). Only reviews with `verified: true` are ever published.",
      ].join(" "),
      license: { name: "Reviews are published by the business; see its site", url: business.url },
    },
    servers: [{ url: baseUrl }],
    tags: [
      {
        name: "datasets",
        description: "Static files prebuilt from the content: datasets, feeds, this document, the page",
      },
      { name: "reviews", description: "Dynamic read API over the current build" },
      { name: "mcp", description: "Model Context Protocol endpoint for AI agents" },
      { name: "websub", description: "WebSub hub for the three topics" },
    ],
    paths: {
      "/reviews.json": staticGet(
        "Reviews dataset",
        "Business metadata, aggregate rating and every verified review, newest first. A WebSub topic.",
        "application/json",
        ref("ReviewsDataset"),
      ),
      "/insights.json": staticGet(
        "Insights dataset",
        "Aspect-based sentiment (per aspect counts, score, trend by quarter, top terms, example quotes), entities (technicians, services, service areas), topics, FAQ and summary. Computed at build time from the published reviews; text flagged `generated: true` was written by the build, not by the business or a customer.",
        "application/json",
        ref("Insights"),
      ),
      "/api/feed.json": staticGet(
        "JSON Feed 1.1",
        `The ${50} newest reviews as JSON Feed 1.1 (served as application/json). A WebSub topic.`,
        "application/json",
        ref("JsonFeed"),
      ),
      "/feed.xml": staticGet(
        "Atom feed",
        "The 50 newest reviews as Atom (RFC 4287). A WebSub topic.",
        "application/atom+xml",
        { type: "string" },
      ),
      "/.well-known/openapi.json": staticGet("This document", "OpenAPI 3.1.0", "application/json", { type: "object" }),
      "/": staticGet("Human page", "The business's public reviews page", "text/html", { type: "string" }),
      ...extraPaths,
      "/api/reviews/search": {
        get: {
          operationId: "searchReviews",
          summary: "Search reviews",
          description:
            "Filters combine with AND. Order: with `query`, by relevance (title hits weigh 3, text hits 1), then newest first, then id; without, newest first (date, updated descending, id ascending). Page on with `cursor` = `next_cursor`. An unknown technician or service gives an empty result. Same results as the MCP tool `search_reviews`.",
          tags: ["reviews"],
          parameters: queryParameters(SearchParams),
          responses: {
            200: {
              description: "Matching reviews",
              headers: { "Access-Control-Allow-Origin": headers["Access-Control-Allow-Origin"] },
              content: { "application/json": { schema: ref(idOf(SearchResult)) } },
            },
            400: issues400,
            414: { $ref: "#/components/responses/UriTooLong" },
            500: { $ref: "#/components/responses/ServerError" },
          },
        },
      },
      "/api/reviews/since/{date}": {
        get: {
          operationId: "reviewsSince",
          summary: "Reviews on or after a date",
          description: "Every review dated on or after `date`, oldest first (date, updated ascending, id ascending).",
          tags: ["reviews"],
          parameters: [
            {
              name: "date",
              in: "path",
              required: true,
              schema: z.toJSONSchema(SinceParams.shape.date, { target: "draft-2020-12" }),
            },
            ...conditionalParams,
          ],
          responses: {
            200: {
              description: "Reviews",
              headers,
              content: { "application/json": { schema: ref(idOf(SinceResult)) } },
            },
            304: notModified,
            400: issues400,
            414: { $ref: "#/components/responses/UriTooLong" },
            500: { $ref: "#/components/responses/ServerError" },
          },
        },
      },
      "/mcp": {
        delete: {
          summary: "End an MCP session",
          tags: ["mcp"],
          parameters: [{ name: "Mcp-Session-Id", in: "header", required: true, schema: { type: "string" } }],
          responses: {
            200: { description: "Session ended" },
            400: { description: "No Mcp-Session-Id", content: { "application/json": { schema: { type: "object" } } } },
            404: {
              description: "Unknown or ended session",
              content: { "application/json": { schema: { type: "object" } } },
            },
          },
        },
        post: {
          summary: "Model Context Protocol (streamable HTTP, JSON-RPC 2.0)",
          description:
            "Protocol 2025-06-18. Send `Accept: application/json, text/event-stream`; `initialize` returns an `Mcp-Session-Id` header to send on every later request. Tools: get_business, search_reviews, get_review, get_reviews_since, get_insights. Bodies over 64 KiB get 413; a foreign Origin gets 403.",
          tags: ["mcp"],
          requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
          responses: {
            200: { description: "JSON-RPC response", content: { "application/json": { schema: { type: "object" } } } },
            202: { description: "Notification or response accepted" },
            400: {
              description: "Missing session id or bad request (JSON-RPC error)",
              content: { "application/json": { schema: { type: "object" } } },
            },
            403: { description: "Foreign Origin", content: { "application/json": { schema: { type: "object" } } } },
            404: {
              description: "Unknown or ended session",
              content: { "application/json": { schema: { type: "object" } } },
            },
            413: { description: "Body over 64 KiB", content: { "application/json": { schema: { type: "object" } } } },
            406: {
              description: "Accept lacks application/json or text/event-stream",
              content: { "application/json": { schema: { type: "object" } } },
            },
            415: {
              description: "Content-Type is not application/json",
              content: { "application/json": { schema: { type: "object" } } },
            },
            503: {
              description: "Too many live sessions (MCP_MAX_SESSIONS); Retry-After says when to try again",
              content: { "application/json": { schema: { type: "object" } } },
            },
          },
        },
      },
      "/api/websub/hub": {
        post: {
          summary: "WebSub hub: subscribe or unsubscribe",
          description: `Topics: ${urls.atom}, ${urls.json}, ${urls.dataset}. Callbacks must be HTTPS; verification of intent runs after the 202. Deliveries carry the full topic content, its Content-Type and a Link header (rel=hub, rel=self); with hub.secret, X-Hub-Signature: sha256=<hex HMAC>.`,
          tags: ["websub"],
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  required: ["hub.callback", "hub.mode", "hub.topic"],
                  properties: {
                    "hub.callback": { type: "string", format: "uri", pattern: "^https://" },
                    "hub.mode": { type: "string", enum: ["subscribe", "unsubscribe"] },
                    "hub.topic": { type: "string", enum: [urls.atom, urls.json, urls.dataset] },
                    "hub.lease_seconds": { type: "integer", minimum: 1 },
                    "hub.secret": { type: "string", maxLength: 199 },
                  },
                },
              },
            },
          },
          responses: {
            202: { description: "Accepted; verification of intent follows" },
            400: {
              description: "Invalid request (reason in plain text)",
              content: { "text/plain": { schema: { type: "string" } } },
            },
            415: { description: "Body is not form-encoded", content: { "text/plain": { schema: { type: "string" } } } },
            429: {
              description: "Rate limit exceeded, or too many verifications pending for this callback host",
              content: { "text/plain": { schema: { type: "string" } } },
            },
            503: {
              description: "Verification queue full, or the hub cannot store the request now; Retry-After",
              content: { "text/plain": { schema: { type: "string" } } },
            },
          },
        },
      },
    },
    components: {
      schemas,
      responses: {
        UriTooLong: jsonError("The URL is longer than 2048 bytes"),
        ServerError: jsonError("Internal error; nothing internal is revealed"),
      },
    },
  };
}
