import type { RequestHandler } from "express";
import { JSON_MEDIA_TYPE } from "../../src/domain/media-types.ts";
import { SearchParams } from "../../src/domain/schemas/api.ts";
import { parseQuery } from "../../src/domain/search/issues.ts";
import { searchPage } from "../../src/domain/search/search-reviews.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import { PerBuildCache } from "../build-store/per-build-cache.ts";
import { reviewListBody } from "../build-store/review-list-body.ts";
import { searchMemoOf } from "../build-store/search-memo.ts";
import { ValidationError } from "../http/errors.ts";
import { CACHE_API, sendBytes } from "../http/headers.ts";

/** Whole answers kept per build, by query string (a repeated search costs a lookup). */
const BODY_BYTES = 16 << 20;

export function reviewsSearch(store: BuildStore): RequestHandler {
  const bodies = new PerBuildCache<Buffer>(BODY_BYTES, (b) => b.length);
  return (req, res) => {
    const snapshot = store.current();
    const url = req.originalUrl;
    const answers = bodies.of(snapshot);
    let body = answers.get(url);
    if (!body) {
      const params = parseQuery(SearchParams, req.query as Record<string, unknown>);
      if (!params.ok) throw new ValidationError(params.issues);
      const page = searchPage(snapshot.index, params.value, searchMemoOf(snapshot));
      if (!page.ok) throw new ValidationError(page.issues);
      body = reviewListBody(snapshot, page.envelope, page.ranks);
      answers.set(url, body);
    }
    res.setHeader("Cache-Control", CACHE_API);
    sendBytes(req, res, JSON_MEDIA_TYPE, body);
  };
}
