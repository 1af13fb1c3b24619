import type { RequestHandler } from "express";
import { SearchParams } from "../../src/domain/schemas/api.ts";
import { parseQuery } from "../../src/domain/search/issues.ts";
import { searchReviews } from "../../src/domain/search/search-reviews.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import { ValidationError } from "../http/errors.ts";
import { CACHE_API, sendJson } from "../http/headers.ts";

export function reviewsSearch(store: BuildStore): RequestHandler {
  return (req, res) => {
    const params = parseQuery(SearchParams, req.query as Record<string, unknown>);
    if (!params.ok) throw new ValidationError(params.issues);
    const outcome = searchReviews(store.current().index, params.value);
    if (!outcome.ok) throw new ValidationError(outcome.issues);
    res.setHeader("Cache-Control", CACHE_API);
    sendJson(res, 200, outcome.result);
  };
}
