// GET /api/reviews/since/{date}: every review on or after the date, oldest first, or a page of them. The answer
// is streamed from the reviews' bytes in chunks, as fast as the client reads, so its memory is a chunk's
// whatever the date; its validators and length come from the build and the index without reading a review.
import type { RequestHandler } from "express";
import { HEAVY_ANSWER_BYTES } from "../../src/domain/limits.ts";
import { JSON_MEDIA_TYPE } from "../../src/domain/media-types.ts";
import { SERVICE_PATHS } from "../../src/domain/pages/site-paths.ts";
import { parseQuery } from "../../src/domain/parse-query.ts";
import { PerBuildCache } from "../../src/domain/per-build-cache.ts";
import { SinceParams } from "../../src/domain/schemas/api.ts";
import { sinceEtagOf, sincePage } from "../../src/domain/since.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import {
  readAtOf,
  reviewListBody,
  reviewListHead,
  reviewListLength,
  writeReviewList,
} from "../build-store/review-list-body.ts";
import { answeredNotModified } from "../http/conditional.ts";
import { ValidationError } from "../http/errors.ts";
import { CACHE_API, setBodyLength } from "../http/headers.ts";
import { heavyAnswers } from "../http/heavy-answers.ts";

/** The Express route pattern (also the metrics label). */
export const SINCE_ROUTE = SERVICE_PATHS.sinceApi.replace("{date}", ":date");

/** Answers under HEAVY_ANSWER_BYTES kept per build, by URL (one over an eighth of it is built and not kept). */
const SMALL_ANSWERS_BYTES = 16 << 20;

/** GET /api/reviews/since/{date}. */
export function reviewsSinceRoute(store: BuildStore): RequestHandler {
  const heavy = heavyAnswers();
  const small = new PerBuildCache<Buffer>(SMALL_ANSWERS_BYTES, (b) => b.length);
  return (req, res) => {
    const params = parseQuery(SinceParams, req.query as Record<string, unknown>, { date: req.params.date as string });
    if (!params.ok) throw new ValidationError(params.issues);
    const snapshot = store.current();
    const found = sincePage(snapshot.index, params.value);
    if (!found.ok) throw new ValidationError(found.issues);
    const { envelope, ranks, newestUpdated } = found.page;
    const reviewsSha256 = snapshot.manifest.files["/reviews.json"]?.sha256 ?? snapshot.manifest.build_id;
    const validators = {
      etag: sinceEtagOf(reviewsSha256, params.value),
      lastModified: newestUpdated === undefined ? snapshot.lastModified : new Date(newestUpdated).toUTCString(),
      cacheControl: CACHE_API,
    };
    if (answeredNotModified(req, res, validators)) return;
    const head = reviewListHead(envelope);
    const length = reviewListLength(snapshot.index, head, ranks);
    // HEAD does no work, so it is never refused.
    if (req.method !== "HEAD") {
      try {
        heavy.admit(req.ip ?? "", res, length);
      } catch (e) {
        // A refusal carries no validators or caching of the answer it refused.
        for (const name of ["ETag", "Last-Modified", "Cache-Control"]) res.removeHeader(name);
        throw e;
      }
    }
    res.setHeader("Content-Type", JSON_MEDIA_TYPE);
    setBodyLength(req, res, length);
    res.statusCode = 200;
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    if (length < HEAVY_ANSWER_BYTES) {
      // An answer under 1 MiB (a recent date, a page) is built once per build and URL and kept: a repeat is one
      // write, with no stream to set up (streaming every answer made since p99 1.8x the kept answers' at 50 clients).
      res.end(small.getOrCompute(snapshot, req.originalUrl, () => reviewListBody(snapshot, envelope, ranks)));
      return;
    }
    // A client that goes away ends the writing; nothing else is held for it.
    const reviewsJson = snapshot.files.get("/reviews.json")?.identity;
    if (!reviewsJson) throw new Error("the build has no reviews.json");
    writeReviewList(res, snapshot.index, head, ranks, readAtOf(reviewsJson));
  };
}
