// RFC 9110 conditional GET: If-None-Match (weak comparison) wins over If-Modified-Since.
import type { IncomingMessage, ServerResponse } from "node:http";

function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, "");
}

export function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  const want = opaque(etag);
  return header.split(",").some((t) => opaque(t) === want);
}

/** True when the client's copy is current and a 304 is due. */
export function isNotModified(req: IncomingMessage, etag: string, lastModified: string | undefined): boolean {
  const inm = req.headers["if-none-match"];
  if (inm !== undefined) return etagMatches(inm, etag);
  const ims = req.headers["if-modified-since"];
  if (ims === undefined || lastModified === undefined) return false;
  const since = Date.parse(ims);
  if (Number.isNaN(since)) return false;
  return Date.parse(lastModified) <= since;
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
