import type { RequestHandler } from "express";
import { JSON_MEDIA_TYPE } from "../../src/domain/media-types.ts";
import { SearchParams } from "../../src/domain/schemas/api.ts";
import { parseQuery } from "../../src/domain/search/issues.ts";
import { type SearchOutcome, searchReviews } from "../../src/domain/search/search-reviews.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { Snapshot } from "../build-store/snapshot.ts";
import { ValidationError } from "../http/errors.ts";
import { CACHE_API, sendBytes } from "../http/headers.ts";

const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]}");

/** The search answer as JSON bytes; MCP's search_reviews sends the same bytes as its text block. */
export function searchBody(snapshot: Snapshot, outcome: SearchOutcome & { ok: true }): Buffer {
  const { reviews: _objects, ...envelope } = outcome.result;
  // The envelope is small; the reviews are copied as bytes from reviews.json (same JSON, no re-serialising).
  const head = JSON.stringify(envelope).slice(0, -1);
  const parts: Buffer[] = [Buffer.from(`${head},"reviews":[`)];
  for (const [i, rank] of outcome.ranks.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(snapshot.reviewBytes(rank));
  }
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

export function reviewsSearch(store: BuildStore): RequestHandler {
  return (req, res) => {
    const params = parseQuery(SearchParams, req.query as Record<string, unknown>);
    if (!params.ok) throw new ValidationError(params.issues);
    const snapshot = store.current();
    const outcome = searchReviews(snapshot.index, params.value);
    if (!outcome.ok) throw new ValidationError(outcome.issues);
    const body = searchBody(snapshot, outcome);
    res.setHeader("Cache-Control", CACHE_API);
    sendBytes(req, res, JSON_MEDIA_TYPE, body);
  };
}
