// The HTTP headers of a published static file, written once for every host that serves dist/: the sidecar, the
// nginx config (npm run nginx-config) and the `_headers` file for Netlify / Cloudflare Pages. Validators (ETag,
// Last-Modified), Content-Length and Content-Encoding belong to each host; everything else is decided here.
import { feedUrls } from "./feeds/feed-items.ts";
import { mediaTypeOf } from "./media-types.ts";

/** Static datasets and feeds: short browser caching, a longer shared (CDN) cache, revalidated by ETag. */
export const CACHE_DATA = "public, max-age=60, s-maxage=300, stale-while-revalidate=600";
/** Dynamic API answers change only with a build. */
export const CACHE_API = "public, max-age=60";
/** Build assets with a content hash in their name. */
export const CACHE_IMMUTABLE = "public, max-age=31536000, immutable";
/** Where Astro puts assets whose names carry a content hash. */
export const IMMUTABLE_PREFIX = "/_astro/";

/**
 * Every endpoint is public: any origin may read, and may see the validators, the WebSub links and what a client
 * needs to resume a download (Content-Range, Accept-Ranges are not CORS-safelisted).
 */
export const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, Last-Modified, Mcp-Session-Id, Link, Content-Range, Accept-Ranges",
} as const;

/** The extra headers of a 204 answer to a CORS preflight (OPTIONS with Access-Control-Request-Method). */
export const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Methods": "GET, HEAD, POST, DELETE",
  // Mcp-Method and Mcp-Name: the routing headers of MCP 2026-07-28.
  "Access-Control-Allow-Headers":
    "Accept, Content-Type, If-None-Match, If-Modified-Since, Range, If-Range, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name",
  "Access-Control-Max-Age": "86400",
} as const;

/**
 * The preflight's allowed headers for a request: the fixed list plus the MCP 2026-07-28 `Mcp-Param-{name}`
 * headers it asks for (one per mirrored argument, so their names cannot be listed in advance).
 */
export function allowHeadersFor(requested: string | undefined): string {
  const mirrored = (requested ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter((h) => /^mcp-param-[\w-]+$/i.test(h));
  return [PREFLIGHT_HEADERS["Access-Control-Allow-Headers"], ...mirrored].join(", ");
}

/** The file the build writes for static hosts that read Netlify-style header rules. Never served. */
export const HEADERS_FILE = "_headers";

/** The URL path of each WebSub topic, with its `Link` header value (W3C WebSub 4: rel="hub" and rel="self"). */
export function topicLinks(baseUrl: string): Map<string, string> {
  const urls = feedUrls(baseUrl);
  const links = new Map<string, string>();
  for (const topic of [urls.dataset, urls.json, urls.atom]) {
    links.set(topic.slice(baseUrl.length), `<${urls.hub}>; rel="hub", <${topic}>; rel="self"`);
  }
  return links;
}

/**
 * The headers of a 200 for the file published at `urlPath` (besides validators, length and encoding).
 * `precompressed`: the build wrote .br/.gz siblings, so the answer depends on Accept-Encoding.
 */
export function staticFileHeaders(
  baseUrl: string,
  file: { urlPath: string; type?: string; precompressed: boolean },
): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": file.type ?? mediaTypeOf(file.urlPath),
    "Cache-Control": file.urlPath.startsWith(IMMUTABLE_PREFIX) ? CACHE_IMMUTABLE : CACHE_DATA,
    ...CORS_HEADERS,
    "X-Content-Type-Options": "nosniff",
  };
  if (file.precompressed) headers.Vary = "Accept-Encoding";
  const link = topicLinks(baseUrl).get(file.urlPath);
  if (link) headers.Link = link;
  return headers;
}
