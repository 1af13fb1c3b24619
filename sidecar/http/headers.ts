import type { Response } from "express";

/** Static datasets and feeds: short browser caching, a longer shared (CDN) cache, revalidated by ETag. */
export const CACHE_DATA = "public, max-age=60, s-maxage=300, stale-while-revalidate=600";
/** Dynamic API answers change only with a build. */
export const CACHE_API = "public, max-age=60";
/** Build assets with a content hash in their name. */
export const CACHE_IMMUTABLE = "public, max-age=31536000, immutable";

export function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status).setHeader("Content-Type", "application/json; charset=utf-8");
  res.end(JSON.stringify(body));
}
