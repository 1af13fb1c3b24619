// RFC 9110 conditional GET: If-None-Match (weak comparison) wins over If-Modified-Since.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";

function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, "");
}

export function etagMatches(header: string, etag: string): boolean {
  // The common case (a client sending back the one tag it was given) needs no parsing.
  if (header === etag) return true;
  if (header.trim() === "*") return true;
  const want = opaque(etag);
  return header.split(",").some((t) => opaque(t) === want);
}

/**
 * True when the client's copy is current and a 304 is due. `lastModifiedMs`: the resource's Last-Modified as
 * Date.parse gives it (NaN when it has none), computed once by callers that answer the same resource often.
 */
export function notModified(headers: IncomingHttpHeaders, etag: string, lastModifiedMs: number): boolean {
  const inm = headers["if-none-match"];
  if (inm !== undefined) return etagMatches(inm, etag);
  const ims = headers["if-modified-since"];
  if (ims === undefined || Number.isNaN(lastModifiedMs)) return false;
  const since = Date.parse(ims);
  if (Number.isNaN(since)) return false;
  return lastModifiedMs <= since;
}

/** True when the client's copy is current and a 304 is due. */
export function isNotModified(req: IncomingMessage, etag: string, lastModified: string | undefined): boolean {
  return notModified(req.headers, etag, lastModified === undefined ? Number.NaN : Date.parse(lastModified));
}

/**
 * Sets the validators and caching headers, and answers 304 (no body, no Content-Type) when the client's copy is
 * current. Returns true when the response is finished.
 */
export function answeredNotModified(
  req: IncomingMessage,
  res: ServerResponse,
  v: { etag: string; lastModified: string | undefined; cacheControl: string },
): boolean {
  res.setHeader("ETag", v.etag);
  if (v.lastModified) res.setHeader("Last-Modified", v.lastModified);
  res.setHeader("Cache-Control", v.cacheControl);
  if (!isNotModified(req, v.etag, v.lastModified)) return false;
  res.statusCode = 304;
  res.end();
  return true;
}
