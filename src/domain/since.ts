// Reviews dated on or after a date, oldest first: the whole list (the default answer) or pages with keyset
// cursors that survive a rebuild. Everything here works on ranks and lengths, so an answer can be streamed and
// its validators computed without reading a review's bytes.
import { sha256Hex, strongEtag } from "./hash.ts";
import { compareOldest } from "./order.ts";
import { type Issue, SINCE_PAGE_DEFAULT, type SinceResult } from "./schemas/api.ts";
import { dayNumber } from "./search/index-keys.ts";
import { pageEnd, type ReviewIndex } from "./search/review-index.ts";

export interface SinceRanks {
  /** Ranks of the reviews dated on or after the date, oldest first. */
  ranks: Int32Array;
  /** Newest `updated` among them (epoch ms), or undefined when there are none. */
  newestUpdated: number | undefined;
}

/** Position in `index.oldest` of the first review dated on or after `date`. */
function firstOnOrAfter(index: ReviewIndex, date: string): number {
  const day = dayNumber(date);
  let lo = 0;
  let hi = index.oldest.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.dates[index.oldest[mid]] < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Reviews dated on or after `date`, oldest first, as ranks of the index. */
export function sinceRanks(index: ReviewIndex, date: string): SinceRanks {
  const lo = firstOnOrAfter(index, date);
  return {
    ranks: index.oldest.subarray(lo),
    newestUpdated: lo < index.oldest.length ? index.sinceNewest[lo] : undefined,
  };
}

/** The since answer with the reviews as objects (tests, small answers). */
export function reviewsSince(index: ReviewIndex, date: string): SinceResult {
  const { ranks } = sinceRanks(index, date);
  return { since: date, count: ranks.length, reviews: Array.from(ranks, (rank) => index.review(rank)) };
}

/** [since date, last review's date, updated, id] */
type SinceKey = [string, string, string, string];

const BAD_CURSOR = "cursor is not a value returned as next_cursor";

function encodeSinceCursor(key: SinceKey): string {
  return Buffer.from(JSON.stringify(["since", ...key])).toString("base64url");
}

function decodeSinceCursor(cursor: string, date: string): SinceKey | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return BAD_CURSOR;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 5 ||
    parsed[0] !== "since" ||
    !parsed.every((x) => typeof x === "string")
  )
    return BAD_CURSOR;
  if (parsed[1] !== date) return "cursor belongs to another date";
  return parsed.slice(1) as SinceKey;
}

export interface SincePage {
  /** The answer's members before `reviews`, in order: since, count, and for pages total, limit, next_cursor. */
  envelope: Omit<SinceResult, "reviews">;
  /** The answer's reviews, oldest first. */
  ranks: Int32Array;
  /** Newest `updated` (epoch ms) of every review on or after the date, or undefined when there are none. */
  newestUpdated: number | undefined;
}

/**
 * The answer to since `date`: every review on or after it, or with `limit` or `cursor` one page of them (the
 * reviews after the cursor's, `limit` of them, SINCE_PAGE_DEFAULT without one, fewer when their JSON would pass
 * `maxBytes`: at least one).
 */
export function sincePage(
  index: ReviewIndex,
  p: { date: string; limit?: number; cursor?: string },
  maxBytes = Number.POSITIVE_INFINITY,
): { ok: true; page: SincePage } | { ok: false; issues: Issue[] } {
  const { oldest } = index;
  const lo = firstOnOrAfter(index, p.date);
  const newestUpdated = lo < oldest.length ? index.sinceNewest[lo] : undefined;
  if (p.limit === undefined && p.cursor === undefined) {
    const ranks = oldest.subarray(lo);
    return { ok: true, page: { envelope: { since: p.date, count: ranks.length }, ranks, newestUpdated } };
  }
  let start = lo;
  if (p.cursor !== undefined) {
    const key = decodeSinceCursor(p.cursor, p.date);
    if (typeof key === "string")
      return { ok: false, issues: [{ path: ["cursor"], code: "invalid_cursor", message: key }] };
    const [, date, updated, id] = key;
    // The first review after the cursor's in oldest-first order (it may have gone in a rebuild).
    let hi = oldest.length;
    while (start < hi) {
      const mid = (start + hi) >>> 1;
      if (compareOldest(index.review(oldest[mid]), { date, updated, id }) <= 0) start = mid + 1;
      else hi = mid;
    }
  }
  const limit = p.limit ?? SINCE_PAGE_DEFAULT;
  const end = pageEnd(index, (i) => oldest[i], start, Math.min(oldest.length, start + limit), maxBytes);
  const ranks = oldest.subarray(start, end);
  let next_cursor: string | null = null;
  if (end < oldest.length && end > start) {
    const last = index.review(oldest[end - 1]);
    next_cursor = encodeSinceCursor([p.date, last.date, last.updated, last.id]);
  }
  const envelope = { since: p.date, count: ranks.length, total: oldest.length - lo, limit, next_cursor };
  return { ok: true, page: { envelope, ranks, newestUpdated } };
}

/**
 * A strong validator of a since answer, from what determines its bytes: the build's reviews.json (its sha256)
 * and the request's date, limit and cursor.
 */
export function sinceEtagOf(reviewsSha256: string, p: { date: string; limit?: number; cursor?: string }): string {
  return strongEtag(sha256Hex(JSON.stringify([reviewsSha256, p.date, p.limit ?? null, p.cursor ?? null])));
}
