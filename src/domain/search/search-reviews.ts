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

/** Review ranks in result order, without materialising a range. */
interface RankList {
  length: number;
  at(i: number): number;
}

const EMPTY: RankList = { length: 0, at: () => -1 };
const rangeOf = (lo: number, hi: number): RankList => ({ length: Math.max(0, hi - lo), at: (i) => lo + i });
const listOf = (a: Postings): RankList => ({ length: a.length, at: (i) => a[i] });

/** Ranks matching every structured filter (and the query's trigrams), ascending. */
function candidateRanks(index: ReviewIndex, p: SearchParams, q: string | undefined): RankList {
  const lists: Postings[] = [];
  if (p.rating !== undefined) lists.push(index.ratings[p.rating]);
  if (p.min_rating !== undefined) {
    lists.push(union(index.ratings.slice(Math.ceil(p.min_rating))));
  }
  if (p.mentions_technician !== undefined) {
    const id = index.resolveTechnician(p.mentions_technician);
    if (!id) return EMPTY;
    lists.push(index.technicians.get(id) ?? []);
  }
  if (p.mentions_service !== undefined) {
    const id = index.resolveService(p.mentions_service);
    if (!id) return EMPTY;
    lists.push(index.services.get(id) ?? []);
  }
  if (q !== undefined && q.length >= 3) {
    for (const g of addTrigrams(q, new Set())) lists.push(index.trigrams.get(g) ?? []);
  }
  // Newest-first order sorts by date first, so a date range is one contiguous run of ranks.
  const lo = p.until === undefined ? 0 : firstRankOnOrBefore(index.reviews, p.until);
  const hi = p.since === undefined ? index.reviews.length : firstRankOnOrBefore(index.reviews, prevDay(p.since));
  if (lists.length === 0) return rangeOf(lo, hi);
  lists.sort((a, b) => a.length - b.length);
  let acc: Postings = clip(lists[0], lo, hi);
  for (const l of lists.slice(1)) {
    if (acc.length === 0) break;
    acc = intersect(acc, l);
  }
  return listOf(acc);
}

/** The day before an ISO date, as an ISO date (so "date <= prevDay(since)" means "before since"). */
function prevDay(date: string): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() - 1);
  return t.toISOString().slice(0, 10);
}

/** `ranks`: each returned review's position in the index, for callers that keep serialised reviews by rank. */
export type SearchOutcome = { ok: true; result: SearchResult; ranks: number[] } | { ok: false; issues: Issue[] };

interface Ordered {
  ordered: RankList;
  scoreAt: (i: number) => number;
}

// Results per filter set are a pure function of the index, so they are memoised on it (per build), within a
// budget of rank entries: a popular query then costs O(limit) instead of a scan of its candidates.
const MEMO_BUDGET = 2_000_000;
const memos = new WeakMap<ReviewIndex, { entries: Map<string, Ordered & { size: number }>; size: number }>();

function orderedMatches(index: ReviewIndex, p: SearchParams, fingerprint: string): Ordered {
  let memo = memos.get(index);
  if (!memo) {
    memo = { entries: new Map(), size: 0 };
    memos.set(index, memo);
  }
  const hit = memo.entries.get(fingerprint);
  if (hit) {
    memo.entries.delete(fingerprint);
    memo.entries.set(fingerprint, hit);
    return hit;
  }
  const q = p.query === undefined ? undefined : foldText(p.query);
  const candidates = candidateRanks(index, p, q);
  // Result order without a query is rank order; with one, relevance first and rank (= newest first) second.
  let out: Ordered = { ordered: candidates, scoreAt: () => 0 };
  if (q !== undefined) {
    const ranks: number[] = [];
    const scores: number[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const rank = candidates.at(i);
      const f = index.folded[rank];
      const score = relevance(f.title, f.text, q);
      if (score > 0) {
        ranks.push(rank);
        scores.push(score);
      }
    }
    const order = Array.from(ranks.keys()).sort((a, b) => scores[b] - scores[a] || ranks[a] - ranks[b]);
    const sortedRanks = Int32Array.from(order, (i) => ranks[i]);
    const sortedScores = Int32Array.from(order, (i) => scores[i]);
    out = { ordered: listOf(sortedRanks), scoreAt: (i) => sortedScores[i] };
  }
  const size = Math.max(1, out.ordered.length);
  if (size <= MEMO_BUDGET / 8) {
    memo.entries.set(fingerprint, { ...out, size });
    memo.size += size;
    for (const [key, entry] of memo.entries) {
      if (memo.size <= MEMO_BUDGET) break;
      memo.entries.delete(key);
      memo.size -= entry.size;
    }
  }
  return out;
}

export function searchReviews(index: ReviewIndex, p: SearchParams): SearchOutcome {
  const fingerprint = filterFingerprint(p);
  let after: SortKey | undefined;
  if (p.cursor !== undefined) {
    const decoded = decodeCursor(p.cursor, fingerprint);
    if (typeof decoded === "string")
      return { ok: false, issues: [{ path: ["cursor"], code: "invalid_cursor", message: decoded }] };
    after = decoded;
  }
  const { ordered, scoreAt } = orderedMatches(index, p, fingerprint);
  const keyAt = (i: number): SortKey => {
    const r = index.reviews[ordered.at(i)];
    return [scoreAt(i), r.date, r.updated, r.id];
  };

  let start = 0;
  if (after) {
    const a = after;
    let lo = 0;
    let hi = ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(keyAt(mid), a) <= 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const end = Math.min(ordered.length, start + p.limit);
  const reviews: ReviewRecord[] = [];
  const ranks: number[] = [];
  for (let i = start; i < end; i++) {
    ranks.push(ordered.at(i));
    reviews.push(index.reviews[ordered.at(i)]);
  }
  const hasMore = end < ordered.length;
  return {
    ok: true,
    ranks,
    result: {
      total: ordered.length,
      count: reviews.length,
      limit: p.limit,
      reviews,
      next_cursor: hasMore && end > start ? encodeCursor(fingerprint, keyAt(end - 1)) : null,
    },
  };
}
