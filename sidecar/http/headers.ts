import type { IncomingMessage, ServerResponse } from "node:http";

/** Static datasets and feeds: short browser caching, a longer shared (CDN) cache, revalidated by ETag. */
export const CACHE_DATA = "public, max-age=60, s-maxage=300, stale-while-revalidate=600";
/** Dynamic API answers change only with a build. */
export const CACHE_API = "public, max-age=60";
/** Build assets with a content hash in their name. */
export const CACHE_IMMUTABLE = "public, max-age=31536000, immutable";

/** 200 with a complete body (none for HEAD); every byte-serving route ends here. */
export function sendBytes(req: IncomingMessage, res: ServerResponse, type: string, body: Buffer): void {
  res.setHeader("Content-Type", type);
  res.setHeader("Content-Length", body.length);
  res.statusCode = 200;
  res.end(req.method === "HEAD" ? undefined : body);
}
