import type { RequestHandler } from "express";
import { JSON_MEDIA_TYPE } from "../../src/domain/media-types.ts";
import { SearchParams } from "../../src/domain/schemas/api.ts";
import { parseQuery } from "../../src/domain/search/issues.ts";
import { type Ordered, searchPage } from "../../src/domain/search/search-reviews.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import { PerBuildCache } from "../build-store/per-build-cache.ts";
import { reviewListBody } from "../build-store/review-list-body.ts";
import { ValidationError } from "../http/errors.ts";
import { CACHE_API, sendBytes } from "../http/headers.ts";

/** Rank entries kept per build across every remembered filter set (a popular query then costs O(limit)). */
const MATCHES_BUDGET = 2_000_000;

export function reviewsSearch(store: BuildStore): RequestHandler {
  const matches = new PerBuildCache<Ordered>(MATCHES_BUDGET, (o) => o.size);
  return (req, res) => {
    const params = parseQuery(SearchParams, req.query as Record<string, unknown>);
    if (!params.ok) throw new ValidationError(params.issues);
    const snapshot = store.current();
    const page = searchPage(snapshot.index, params.value, matches.of(snapshot));
    if (!page.ok) throw new ValidationError(page.issues);
    res.setHeader("Cache-Control", CACHE_API);
    sendBytes(req, res, JSON_MEDIA_TYPE, reviewListBody(snapshot, page.envelope, page.ranks));
  };
}
