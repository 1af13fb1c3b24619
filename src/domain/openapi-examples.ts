// Examples for the OpenAPI document: one for every parameter and for every error answer, so that rendered
// references and mock servers show values the service accepts and answers it gives. Ids come from the business's own
// catalogue (and one published review), so an example sent as it stands gets a 200.
import { HUB_FORM_MAX_BYTES } from "./limits.ts";
import type { Business } from "./schemas/published.ts";

type Schema = { enum?: unknown[]; examples?: unknown[]; default?: unknown; type?: string; minimum?: number };
type Parameter = { name: string; in: string; schema?: Schema; example?: unknown };
type Media = { schema?: { $ref?: string; type?: string }; example?: unknown };
type Operation = { parameters?: Parameter[]; responses?: Record<string, { content?: Record<string, Media> }> };

/** A strong ETag as the service sends them (static-headers.ts, middleware.ts). */
const ETAG = '"3f1c0e9b7d2a4c58a1e3f0b9c7d2e4a1"';

function parameterExample(path: string, p: Parameter, business: Business, reviewId: string | undefined): unknown {
  const first = <T>(list: readonly T[] | undefined) => list?.[0];
  const byName: Record<string, unknown> = {
    "header:If-None-Match": ETAG,
    "header:If-Modified-Since": "Sun, 01 Jun 2025 00:00:00 GMT",
    "header:Range": "bytes=0-1023",
    "header:If-Range": ETAG,
    "header:Mcp-Session-Id": "2025-06-18.mx1a1byl.pC5XD_YcfLBNEOAc.5wVmzY3BUvdNODaxGTpMGnjmyL3GE884utozNOo4SYw",
    "query:rating": 5,
    "query:min_rating": 4,
    "query:query": "on time",
    "query:match": "words",
    "query:mentions_technician": first(business.technicians)?.id,
    "query:mentions_service": first(business.services)?.id,
    "query:mentions_area": first(business.service_areas)?.id,
    "query:limit": 20,
    "query:cursor": "eyJkIjoiMjAyNS0wNi0wMSJ9",
    "path:n": 2,
    "path:date": "2025-06-01",
  };
  if (p.in === "path" && p.name === "id") {
    if (path.startsWith("/reviews/")) return reviewId;
    if (path.startsWith("/technicians/") || path.includes("{kind}")) return first(business.technicians)?.id;
    if (path.startsWith("/services/")) return first(business.services)?.id;
    if (path.startsWith("/areas/")) return first(business.service_areas)?.id;
  }
  const named = byName[`${p.in}:${p.name}`];
  if (named !== undefined) return named;
  const s = p.schema ?? {};
  return first(s.examples) ?? first(s.enum) ?? s.default ?? (s.type === "integer" ? (s.minimum ?? 1) : undefined);
}

const ERROR_EXAMPLES: Record<string, unknown> = {
  "#/components/schemas/Error": {
    error: "not_found",
    message: "No resource at /nope. The API is described at /.well-known/openapi.json.",
  },
  "#/components/schemas/Issues": {
    issues: [{ path: ["rating"], code: "too_big", message: "Too big: expected number to be <=5" }],
  },
};
/** The MCP endpoint's errors are JSON-RPC error objects (the SDK's transport and sidecar/mcp). */
const rpcError = (code: number, message: string) => ({ jsonrpc: "2.0", id: null, error: { code, message } });
const RPC_EXAMPLES: Record<string, unknown> = {
  400: rpcError(-32000, "Bad Request: Mcp-Session-Id header is required (send initialize first)"),
  403: rpcError(-32000, "Forbidden: this Host is not served here"),
  404: rpcError(-32001, "Session not found: it ended or expired"),
  406: rpcError(-32000, "Not Acceptable: Client must accept both application/json and text/event-stream"),
  413: rpcError(-32000, "Payload too large"),
  415: rpcError(-32000, "Unsupported Media Type: Content-Type must be application/json"),
  429: rpcError(-32000, "Too many sessions from this address; try again later"),
  503: rpcError(-32000, "Too many sessions; try again later"),
};
/** The hub's plain-text reasons (sidecar/hub/hub-route.ts, hub.ts), by status. */
const TEXT_EXAMPLES: Record<string, string> = {
  400: "hub.callback must be an HTTPS URL; plain HTTP callbacks are refused",
  413: `The form exceeds ${HUB_FORM_MAX_BYTES} bytes (W3C WebSub; this hub's limit).`,
  415: "The body must be application/x-www-form-urlencoded (hub.mode, hub.topic, hub.callback).",
  429: "Too many hub requests from your address; try again in a minute.",
  503: "The hub's verification queue is full; try again later.",
};

/** Adds an example to every parameter and to every JSON or plain-text error answer that has none. */
export function addExamples(paths: Record<string, Record<string, Operation>>, business: Business, reviewId?: string) {
  for (const [path, item] of Object.entries(paths)) {
    for (const op of Object.values(item)) {
      for (const p of op.parameters ?? []) {
        if (p.example !== undefined || p.schema?.examples) continue;
        const example = parameterExample(path, p, business, reviewId);
        if (example !== undefined) p.example = example;
      }
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (Number(status) < 400) continue;
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (media.example !== undefined) continue;
          const ref = media.schema?.$ref;
          if (ref && ERROR_EXAMPLES[ref]) media.example = ERROR_EXAMPLES[ref];
          else if (type === "application/json" && media.schema?.type === "object") media.example = RPC_EXAMPLES[status];
          else if (type === "text/plain" && TEXT_EXAMPLES[status]) media.example = TEXT_EXAMPLES[status];
        }
      }
    }
  }
}
