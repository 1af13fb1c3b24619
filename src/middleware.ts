// HTTP for pages rendered on demand (the sidecar's Astro mount): a strong ETag per encoding, 304 for a matching
// If-None-Match, compression, the API's caching, and a per-build cache of rendered pages so that repeated requests
// and revalidations skip rendering. Prerendered pages are files; the static handler does all this for them.
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { MiddlewareHandler } from "astro";
import { etagMatches } from "../sidecar/http/conditional.ts";
import { acceptedEncodings } from "../sidecar/http/encoding.ts";
import { CACHE_API } from "../sidecar/http/headers.ts";
import { sha256Hex, strongEtag } from "./domain/hash.ts";

const br = promisify(brotliCompress);
const gz = promisify(gzip);
/** Fast levels: pages are compressed per render (a 30 KB page takes well under a millisecond at these). */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;
/** Rendered 200 pages kept per build (least recently used dropped first); a new build starts empty. */
export const PAGE_CACHE_BYTES = 32 * 1024 * 1024;

interface Rendered {
  status: number;
  headers: Headers;
  body: Buffer;
  etag?: string;
}
type Cache = { entries: Map<string, Rendered>; bytes: number };
const caches = new WeakMap<object, Cache>();

async function render(response: Response, encoding: string): Promise<Rendered> {
  const identity = Buffer.from(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.set("Vary", "Accept-Encoding");
  headers.set("X-Content-Type-Options", "nosniff");
  if (headers.get("Content-Type") === "text/html") headers.set("Content-Type", "text/html; charset=utf-8");
  let body = identity;
  if (encoding === "br") body = await br(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });
  if (encoding === "gzip") body = await gz(identity, { level: GZIP_LEVEL });
  if (encoding !== "identity") headers.set("Content-Encoding", encoding);
  headers.set("Content-Length", String(body.length));
  if (response.status !== 200) {
    headers.set("Cache-Control", "no-store");
    return { status: response.status, headers, body };
  }
  const etag = strongEtag(sha256Hex(identity), encoding === "identity" ? "" : encoding);
  headers.set("ETag", etag);
  headers.set("Cache-Control", CACHE_API);
  return { status: 200, headers, body, etag };
}

function remember(cache: Cache, key: string, page: Rendered): void {
  if (page.etag === undefined || page.body.length > PAGE_CACHE_BYTES / 16) return;
  cache.entries.set(key, page);
  cache.bytes += page.body.length;
  for (const [k, old] of cache.entries) {
    if (cache.bytes <= PAGE_CACHE_BYTES) break;
    cache.entries.delete(k);
    cache.bytes -= old.body.length;
  }
}

export const onRequest: MiddlewareHandler = async (context, next) => {
  if (context.isPrerendered) return next();
  const { request, url, locals } = context;
  const accepted = acceptedEncodings(request.headers.get("accept-encoding") ?? undefined);
  const encoding = accepted.has("br") ? "br" : accepted.has("gzip") ? "gzip" : "identity";
  const cache = locals.site ? (caches.get(locals.site) ?? { entries: new Map(), bytes: 0 }) : undefined;
  if (cache && locals.site) caches.set(locals.site, cache);
  const key = `${url.pathname}${url.search} ${encoding}`;
  let page = cache?.entries.get(key);
  if (page && cache) {
    cache.entries.delete(key); // re-inserted below: the Map's order is the recency order
    cache.entries.set(key, page);
  } else {
    page = await render(await next(), encoding);
    if (cache && request.method === "GET") remember(cache, key, page);
  }
  const inm = request.headers.get("if-none-match");
  if (page.etag !== undefined && inm !== null && etagMatches(inm, page.etag)) {
    const headers = new Headers(page.headers);
    headers.delete("Content-Type");
    headers.delete("Content-Length");
    return new Response(null, { status: 304, headers });
  }
  return new Response(request.method === "HEAD" ? null : new Uint8Array(page.body), {
    status: page.status,
    headers: page.headers,
  });
};
