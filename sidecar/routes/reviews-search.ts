import type { RequestHandler } from "express";
import { JSON_MEDIA_TYPE } from "../../src/domain/media-types.ts";
import { SERVICE_PATHS } from "../../src/domain/pages/site-paths.ts";
import { SearchParams } from "../../src/domain/schemas/api.ts";
import { parseQuery } from "../../src/domain/search/issues.ts";
import { searchPage } from "../../src/domain/search/search-reviews.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import { PerBuildCache } from "../build-store/per-build-cache.ts";
import { reviewListBody } from "../build-store/review-list-body.ts";
import { searchMemoOf } from "../build-store/search-memo.ts";
import { CORS_FIELDS } from "../http/cross-cutting.ts";
import { ValidationError } from "../http/errors.ts";
import { type PreparedAnswer, type PreparedRoute, prepareAnswer } from "../http/fast-path.ts";
import { CACHE_API, sendBytes } from "../http/headers.ts";

export const SEARCH_ROUTE = SERVICE_PATHS.searchApi;

/** Whole answers kept per build, by URL (a repeated search costs a lookup, and on the fast path skips Express). */
const BODY_BYTES = 16 << 20;

/** GET /api/reviews/search (Express) and its answers for the fast path, from one cache. */
export function reviewsSearch(store: BuildStore): { handler: RequestHandler; fast: PreparedRoute } {
  const answers = new PerBuildCache<PreparedAnswer>(BODY_BYTES, (a) => a.length);
  const handler: RequestHandler = (req, res) => {
    const snapshot = store.current();
    const url = req.originalUrl;
    const cache = answers.of(snapshot);
    let body = cache.get(url)?.body();
    if (!body) {
      const params = parseQuery(SearchParams, req.query as Record<string, unknown>);
      if (!params.ok) throw new ValidationError(params.issues);
      const page = searchPage(snapshot.index, params.value, searchMemoOf(snapshot));
      if (!page.ok) throw new ValidationError(page.issues);
      const bytes = reviewListBody(snapshot, page.envelope, page.ranks);
      // What the lines below send, on the general path's header order (CORS first, set by the cors middleware).
      cache.set(
        url,
        prepareAnswer({
          headers: [...CORS_FIELDS, ["Cache-Control", CACHE_API]],
          type: JSON_MEDIA_TYPE,
          length: bytes.length,
          body: () => bytes,
        }),
      );
      body = bytes;
    }
    res.setHeader("Cache-Control", CACHE_API);
    sendBytes(req, res, JSON_MEDIA_TYPE, body);
  };
  const fast: PreparedRoute = {
    label: SEARCH_ROUTE,
    owns: (path) => path === SEARCH_ROUTE,
    lookup: (snapshot, url) => answers.of(snapshot).get(url),
  };
  return { handler, fast };
}
