// Conditional GET on a Node response: the validators set, and 304 when the client's copy is current.
import type { IncomingMessage, ServerResponse } from "node:http";
import { notModified } from "../../src/domain/http/conditional.ts";

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
