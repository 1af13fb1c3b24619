// GET /api/reviews/search and the MCP tool search_reviews: one pure function over a ReviewIndex.
import type { Issue, SearchParams, SearchResult } from "../schemas/api.ts";
import type { ReviewRecord } from "../schemas/published.ts";
import { compareKeys, decodeCursor, encodeCursor, filterFingerprint, type SortKey } from "./cursor.ts";
import type { ReviewIndex } from "./review-index.ts";
import { addTrigrams } from "./review-index.ts";
import { clip, intersect, type Postings, union } from "./sorted-sets.ts";
import { foldText, relevance } from "./text-match.ts";

/** First rank whose date is <= `date` in newest-first order (dates descending). */
function firstRankOnOrBefore(reviews: readonly ReviewRecord[], date: string): number {
  let lo = 0;
  let hi = reviews.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (reviews[mid].date > date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Ranks matching every structured filter, ascending; undefined means "all". */
function candidateRanks(index: ReviewIndex, p: SearchParams, q: string | undefined): Postings | undefined | null {
  const lists: Postings[] = [];
  if (p.rating !== undefined) lists.push(index.ratings[p.rating]);
  if (p.min_rating !== undefined) {
    lists.push(union(index.ratings.slice(Math.ceil(p.min_rating))));
  }
  if (p.mentions_technician !== undefined) {
    const id = index.resolveTechnician(p.mentions_technician);
    if (!id) return null;
    lists.push(index.technicians.get(id) ?? []);
  }
  if (p.mentions_service !== undefined) {
    const id = index.resolveService(p.mentions_service);
    if (!id) return null;
    lists.push(index.services.get(id) ?? []);
  }
  if (q !== undefined && q.length >= 3) {
    for (const g of addTrigrams(q, new Set())) lists.push(index.trigrams.get(g) ?? []);
  }
  const lo = p.until === undefined ? 0 : firstRankOnOrBefore(index.reviews, p.until);
  const hi = p.since === undefined ? index.reviews.length : firstRankOnOrBefore(index.reviews, prevDay(p.since));
  if (lists.length === 0) {
    if (lo === 0 && hi === index.reviews.length) return undefined;
    return Array.from({ length: Math.max(0, hi - lo) }, (_, i) => lo + i);
  }
  lists.sort((a, b) => a.length - b.length);
  let acc: Postings = clip(lists[0], lo, hi);
  for (const l of lists.slice(1)) {
    if (acc.length === 0) break;
    acc = intersect(acc, l);
  }
  return acc;
}

/** The day before an ISO date, as an ISO date (so "date <= prevDay(since)" means "before since"). */
function prevDay(date: string): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() - 1);
  return t.toISOString().slice(0, 10);
}

export type SearchOutcome = { ok: true; result: SearchResult } | { ok: false; issues: Issue[] };

export function searchReviews(index: ReviewIndex, p: SearchParams): SearchOutcome {
  const fingerprint = filterFingerprint(p);
  let after: SortKey | undefined;
  if (p.cursor !== undefined) {
    const decoded = decodeCursor(p.cursor, fingerprint);
    if (typeof decoded === "string")
      return { ok: false, issues: [{ path: ["cursor"], code: "invalid_cursor", message: decoded }] };
    after = decoded;
  }
  const q = p.query === undefined ? undefined : foldText(p.query);
  const candidates = candidateRanks(index, p, q);
  const ranks: Postings = candidates === null ? [] : (candidates ?? index.reviews.map((_, i) => i));

  const matches: { key: SortKey; review: ReviewRecord }[] = [];
  for (const rank of ranks) {
    const review = index.reviews[rank];
    let score = 0;
    if (q !== undefined) {
      const f = index.folded[rank];
      score = relevance(f.title, f.text, q);
      if (score === 0) continue;
    }
    matches.push({ key: [score, review.date, review.updated, review.id], review });
  }
  if (q !== undefined) matches.sort((a, b) => compareKeys(a.key, b.key));

  let start = 0;
  if (after) {
    const a = after;
    let lo = 0;
    let hi = matches.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(matches[mid].key, a) <= 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const page = matches.slice(start, start + p.limit);
  const last = page.at(-1);
  const hasMore = start + p.limit < matches.length;
  return {
    ok: true,
    result: {
      total: matches.length,
      count: page.length,
      limit: p.limit,
      reviews: page.map((m) => m.review),
      next_cursor: hasMore && last ? encodeCursor(fingerprint, last.key) : null,
    },
  };
}
