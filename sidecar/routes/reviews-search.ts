import type { RequestHandler } from "express";
import { JSON_MEDIA_TYPE } from "../../src/domain/media-types.ts";
import { SERVICE_PATHS } from "../../src/domain/pages/site-paths.ts";
import { parseQuery } from "../../src/domain/parse-query.ts";
import { PerBuildCache } from "../../src/domain/per-build-cache.ts";
import { SearchParams } from "../../src/domain/schemas/api.ts";
import { searchPage } from "../../src/domain/search/search-reviews.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import { reviewListBody } from "../build-store/review-list-body.ts";
import { searchMemoOf } from "../build-store/search-memo.ts";
import { ValidationError } from "../http/errors.ts";
import { CACHE_API, sendBytes } from "../http/headers.ts";

export const SEARCH_ROUTE = SERVICE_PATHS.searchApi;

/** Whole answers kept per build, by URL: a repeated search costs a lookup. */
const BODY_BYTES = 16 << 20;

/** GET /api/reviews/search. */
export function reviewsSearch(store: BuildStore): RequestHandler {
  const answers = new PerBuildCache<Buffer>(BODY_BYTES, (b) => b.length);
  return (req, res) => {
    const snapshot = store.current();
    const body = answers.getOrCompute(snapshot, req.originalUrl, () => {
      const params = parseQuery(SearchParams, req.query as Record<string, unknown>);
      if (!params.ok) throw new ValidationError(params.issues);
      const page = searchPage(snapshot.index, params.value, searchMemoOf(snapshot));
      if (!page.ok) throw new ValidationError(page.issues);
      return reviewListBody(snapshot, page.envelope, page.ranks);
    });
    res.setHeader("Cache-Control", CACHE_API);
    sendBytes(req, res, JSON_MEDIA_TYPE, body);
  };
}
