// GET /api/reviews/since/{date}: a pure function of the build, so each answer is cached per build and date,
// with a strong ETag over its exact bytes.
import type { RequestHandler } from "express";
import { sha256Hex, strongEtag } from "../../src/domain/hash.ts";
import { JSON_MEDIA_TYPE } from "../../src/domain/media-types.ts";
import { newestUpdated } from "../../src/domain/order.ts";
import { SinceParams } from "../../src/domain/schemas/api.ts";
import { parseQuery } from "../../src/domain/search/issues.ts";
import { reviewsSince } from "../../src/domain/since.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { Snapshot } from "../build-store/snapshot.ts";
import { answeredNotModified } from "../http/conditional.ts";
import { ValidationError } from "../http/errors.ts";
import { CACHE_API, sendBytes } from "../http/headers.ts";

interface Cached {
  body: Buffer;
  etag: string;
  lastModified: string | undefined;
}

const CACHE_ENTRIES = 512;

export function reviewsSinceRoute(store: BuildStore): RequestHandler {
  const caches = new WeakMap<Snapshot, Map<string, Cached>>();
  const answer = (snapshot: Snapshot, date: string): Cached => {
    let cache = caches.get(snapshot);
    if (!cache) {
      cache = new Map();
      caches.set(snapshot, cache);
    }
    const hit = cache.get(date);
    if (hit) return hit;
    const result = reviewsSince(snapshot.index.oldestFirst, date);
    const body = Buffer.from(JSON.stringify(result));
    const newest = newestUpdated(result.reviews);
    const entry = {
      body,
      etag: strongEtag(sha256Hex(body)),
      lastModified: newest ? new Date(newest).toUTCString() : snapshot.lastModified,
    };
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(date, entry);
    return entry;
  };

  return (req, res) => {
    const params = parseQuery(SinceParams, { ...(req.query as Record<string, unknown>), date: req.params.date });
    if (!params.ok) throw new ValidationError(params.issues);
    const { body, etag, lastModified } = answer(store.current(), params.value.date);
    if (answeredNotModified(req, res, { etag, lastModified, cacheControl: CACHE_API })) return;
    sendBytes(req, res, JSON_MEDIA_TYPE, body);
  };
}
