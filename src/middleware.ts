// HTTP for pages rendered on demand (the sidecar's Astro mount): a strong ETag per encoding, 304 for a matching
// If-None-Match, compression, the API's caching, and a per-build cache of rendered pages so that repeated requests
// and revalidations skip rendering. Prerendered pages are files; the static handler does all this for them.
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { MiddlewareHandler } from "astro";
import { sha256Hex, strongEtag } from "./domain/hash.ts";
import { etagMatches } from "./domain/http/conditional.ts";
import { acceptedEncodings } from "./domain/http/encoding.ts";
import { PerBuildCache } from "./domain/per-build-cache.ts";
import { CACHE_API } from "./domain/static-headers.ts";

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
/** Per build's page data; a page over 1/16 of the budget is not kept. */
const pages = new PerBuildCache<Rendered, object>(PAGE_CACHE_BYTES, (p) => p.body.length, 16);

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

export const onRequest: MiddlewareHandler = async (context, next) => {
  if (context.isPrerendered) return next();
  const { request, url, locals } = context;
  const accepted = acceptedEncodings(request.headers.get("accept-encoding") ?? undefined);
  const encoding = accepted.has("br") ? "br" : accepted.has("gzip") ? "gzip" : "identity";
  const cache = locals.site ? pages.of(locals.site) : undefined;
  const key = `${url.pathname}${url.search} ${encoding}`;
  let page = cache?.get(key);
  if (!page) {
    page = await render(await next(), encoding);
    // Only 200s (they have an ETag) of GETs are kept.
    if (cache && request.method === "GET" && page.etag !== undefined) cache.set(key, page);
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
