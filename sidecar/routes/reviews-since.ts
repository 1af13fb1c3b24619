// GET /api/reviews/since/{date}: a pure function of the build, so each answer's validators are cached per
// build and date, and its bytes (slices of reviews.json) within a byte budget.
import type { RequestHandler } from "express";
import { sha256Hex, strongEtag } from "../../src/domain/hash.ts";
import { JSON_MEDIA_TYPE } from "../../src/domain/media-types.ts";
import { SinceParams } from "../../src/domain/schemas/api.ts";
import { parseQuery } from "../../src/domain/search/issues.ts";
import { sinceRanks } from "../../src/domain/since.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import { PerBuildCache } from "../build-store/per-build-cache.ts";
import { reviewListBody } from "../build-store/review-list-body.ts";
import type { Snapshot } from "../build-store/snapshot.ts";
import { answeredNotModified } from "../http/conditional.ts";
import { ValidationError } from "../http/errors.ts";
import { CACHE_API, sendBytes } from "../http/headers.ts";

interface Validators {
  etag: string;
  lastModified: string | undefined;
}

const VALIDATOR_ENTRIES = 4096;
const BODY_BYTES = 64 << 20;

function sinceBody(snapshot: Snapshot, date: string): Buffer {
  const { ranks } = sinceRanks(snapshot.index, date);
  return reviewListBody(snapshot, { since: date, count: ranks.length }, ranks);
}

export function reviewsSinceRoute(store: BuildStore): RequestHandler {
  const validators = new PerBuildCache<Validators>(VALIDATOR_ENTRIES, () => 1);
  const bodies = new PerBuildCache<Buffer>(BODY_BYTES, (b) => b.length);

  return (req, res) => {
    const params = parseQuery(SinceParams, { ...(req.query as Record<string, unknown>), date: req.params.date });
    if (!params.ok) throw new ValidationError(params.issues);
    const snapshot = store.current();
    const { date } = params.value;
    const body = () => bodies.getOrCompute(snapshot, date, () => sinceBody(snapshot, date));
    const { etag, lastModified } = validators.getOrCompute(snapshot, date, () => {
      const newest = sinceRanks(snapshot.index, date).newestUpdated;
      return {
        etag: strongEtag(sha256Hex(body())),
        lastModified: newest === undefined ? snapshot.lastModified : new Date(newest).toUTCString(),
      };
    });
    if (answeredNotModified(req, res, { etag, lastModified, cacheControl: CACHE_API })) return;
    sendBytes(req, res, JSON_MEDIA_TYPE, body());
  };
}
