// HTTP for pages rendered on demand (the sidecar's Astro mount): a strong ETag per encoding, 304 for a matching
// If-None-Match, compression, and the API's caching. Prerendered pages are files; the static handler does this.
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { MiddlewareHandler } from "astro";
import { etagMatches } from "../sidecar/http/conditional.ts";
import { acceptedEncodings } from "../sidecar/http/encoding.ts";
import { CACHE_API } from "../sidecar/http/headers.ts";
import { sha256Hex, strongEtag } from "./domain/hash.ts";

const br = promisify(brotliCompress);
const gz = promisify(gzip);
/** Fast levels: pages are compressed per request (a 30 KB page takes well under a millisecond at these). */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

export const onRequest: MiddlewareHandler = async (context, next) => {
  const response = await next();
  if (context.isPrerendered) return response;
  const body = Buffer.from(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.set("Vary", "Accept-Encoding");
  if (headers.get("Content-Type") === "text/html") headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("X-Content-Type-Options", "nosniff");
  const accepted = acceptedEncodings(context.request.headers.get("accept-encoding") ?? undefined);
  const encoding = accepted.has("br") ? "br" : accepted.has("gzip") ? "gzip" : "identity";
  if (response.status === 200) {
    const etag = strongEtag(sha256Hex(body), encoding === "identity" ? "" : encoding);
    headers.set("ETag", etag);
    headers.set("Cache-Control", CACHE_API);
    const inm = context.request.headers.get("if-none-match");
    if (inm !== null && etagMatches(inm, etag)) {
      headers.delete("Content-Type");
      return new Response(null, { status: 304, headers });
    }
  } else {
    headers.set("Cache-Control", "no-store");
  }
  let out: Buffer = body;
  if (encoding === "br") out = await br(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });
  if (encoding === "gzip") out = await gz(body, { level: GZIP_LEVEL });
  if (encoding !== "identity") headers.set("Content-Encoding", encoding);
  headers.set("Content-Length", String(out.length));
  return new Response(context.request.method === "HEAD" ? null : new Uint8Array(out), {
    status: response.status,
    headers,
  });
};
