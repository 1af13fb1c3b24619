// GET /api/reviews/since/{date}: a pure function of the build, so each answer's validators are cached per
// build and date, its bytes (slices of reviews.json) within a byte budget, and the answer prepared for the fast
// path per URL.
import type { RequestHandler } from "express";
import { sha256Hex, strongEtag } from "../../src/domain/hash.ts";
import { JSON_MEDIA_TYPE } from "../../src/domain/media-types.ts";
import { SERVICE_PATHS } from "../../src/domain/pages/site-paths.ts";
import { SinceParams } from "../../src/domain/schemas/api.ts";
import { parseQuery } from "../../src/domain/search/issues.ts";
import { sinceRanks } from "../../src/domain/since.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import { PerBuildCache } from "../build-store/per-build-cache.ts";
import { reviewListBody } from "../build-store/review-list-body.ts";
import type { Snapshot } from "../build-store/snapshot.ts";
import { answeredNotModified } from "../http/conditional.ts";
import { CORS_FIELDS } from "../http/cross-cutting.ts";
import { ValidationError } from "../http/errors.ts";
import { type PreparedAnswer, type PreparedRoute, prepareAnswer } from "../http/fast-path.ts";
import { CACHE_API, sendBytes } from "../http/headers.ts";

/** The Express route pattern (also the metrics label). */
export const SINCE_ROUTE = SERVICE_PATHS.sinceApi.replace("{date}", ":date");
const SINCE_PREFIX = SERVICE_PATHS.sinceApi.slice(0, SERVICE_PATHS.sinceApi.indexOf("{date}"));

interface Validators {
  etag: string;
  lastModified: string | undefined;
}

const VALIDATOR_ENTRIES = 4096;
const BODY_BYTES = 64 << 20;
/** URLs answered on the fast path, per build (several URLs may name one date: `2026-10-01/`, `…?`). */
const PREPARED_ENTRIES = 4096;

function sinceBody(snapshot: Snapshot, date: string, ranks = sinceRanks(snapshot.index, date).ranks): Buffer {
  return reviewListBody(snapshot, { since: date, count: ranks.length }, ranks);
}

/** GET /api/reviews/since/{date} (Express) and its answers for the fast path. */
export function reviewsSinceRoute(store: BuildStore): { handler: RequestHandler; fast: PreparedRoute } {
  const validators = new PerBuildCache<Validators>(VALIDATOR_ENTRIES, () => 1);
  const bodies = new PerBuildCache<Buffer>(BODY_BYTES, (b) => b.length);
  const prepared = new PerBuildCache<PreparedAnswer>(PREPARED_ENTRIES, () => 1);

  const handler: RequestHandler = (req, res) => {
    const params = parseQuery(SinceParams, req.query as Record<string, unknown>, { date: req.params.date as string });
    if (!params.ok) throw new ValidationError(params.issues);
    const snapshot = store.current();
    const { date } = params.value;
    const body = () => bodies.getOrCompute(snapshot, date, () => sinceBody(snapshot, date));
    const { etag, lastModified } = validators.getOrCompute(snapshot, date, () => {
      // One look-up of the date for the validators and, when it is not kept yet, the body.
      const { ranks, newestUpdated } = sinceRanks(snapshot.index, date);
      const bytes = bodies.getOrCompute(snapshot, date, () => sinceBody(snapshot, date, ranks));
      return {
        etag: strongEtag(sha256Hex(bytes)),
        lastModified: newestUpdated === undefined ? snapshot.lastModified : new Date(newestUpdated).toUTCString(),
      };
    });
    // What the lines below send, on the general path's header order (CORS first, set by the cors middleware).
    prepared.getOrCompute(snapshot, req.originalUrl, () =>
      prepareAnswer({
        headers: CORS_FIELDS,
        validators: { etag, lastModified, cacheControl: CACHE_API },
        type: JSON_MEDIA_TYPE,
        length: body().length,
        body,
      }),
    );
    if (answeredNotModified(req, res, { etag, lastModified, cacheControl: CACHE_API })) return;
    sendBytes(req, res, JSON_MEDIA_TYPE, body());
  };
  const fast: PreparedRoute = {
    label: SINCE_ROUTE,
    owns: (path) => path.startsWith(SINCE_PREFIX),
    lookup: (snapshot, url) => prepared.of(snapshot).get(url),
  };
  return { handler, fast };
}
