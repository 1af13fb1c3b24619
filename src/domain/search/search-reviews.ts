// GET /api/reviews/search and the MCP tool search_reviews: one pure function over a ReviewIndex.
import type { Issue, SearchParams, SearchResult } from "../schemas/api.ts";
import type { ReviewRecord } from "../schemas/published.ts";
import {
  compareKeys,
  decodeCursor,
  encodeCursor,
  filterFingerprint,
  filtersOf,
  type SearchFilters,
  type SortKey,
} from "./cursor.ts";
import { addTrigrams, dayNumber } from "./index-keys.ts";
import { orderRanks, type RankList, sortOf, withAspect } from "./order-ranks.ts";
import { pageEnd, type ReviewIndex } from "./review-index.ts";
import {
  type Bitmap,
  clip,
  filterByBitmaps,
  intersect,
  intersectBitmaps,
  type Postings,
  union,
} from "./sorted-sets.ts";
import { foldText } from "./text-match.ts";
import { queryWordKeys } from "./word-fold.ts";
import { byScore, wordMatches } from "./word-search.ts";

/** First rank whose date is <= `day` in newest-first order (dates descending). */
function firstRankOnOrBefore(dates: Int32Array, day: number): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid] > day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export type { RankList };

const EMPTY: RankList = { length: 0, at: () => -1 };
const rangeOf = (lo: number, hi: number): RankList => ({ length: Math.max(0, hi - lo), at: (i) => lo + i });
const listOf = (a: Postings): RankList => ({ length: a.length, at: (i) => a[i] });

/** Ranks matching every structured filter (and the query's trigrams), ascending. */
function candidateRanks(index: ReviewIndex, p: SearchFilters, q: string | undefined): RankList {
  // A query of nothing but diacritics folds to nothing: it names no text, so nothing matches.
  if (q === "") return EMPTY;
  const lists: Postings[] = [];
  const bitmaps: Bitmap[] = [];
  if (p.rating !== undefined) lists.push(index.ratings(p.rating));
  if (p.min_rating !== undefined) {
    const buckets: Postings[] = [];
    for (let r = Math.ceil(p.min_rating); r <= 5; r++) buckets.push(index.ratings(r));
    lists.push(union(buckets));
  }
  if (p.mentions_technician !== undefined) {
    const id = index.resolveTechnician(p.mentions_technician);
    if (!id) return EMPTY;
    lists.push(index.technician(id));
  }
  if (p.mentions_service !== undefined) {
    const id = index.resolveService(p.mentions_service);
    if (!id) return EMPTY;
    lists.push(index.service(id));
  }
  if (p.mentions_area !== undefined) {
    const id = index.resolveArea(p.mentions_area);
    if (!id) return EMPTY;
    lists.push(index.area(id));
  }
  if (q !== undefined && q.length >= 3) {
    for (const g of addTrigrams(q, new Set())) {
      const list = index.trigram(g);
      if (list instanceof Int32Array) lists.push(list);
      else bitmaps.push(list);
    }
  }
  // Newest-first order sorts by date first, so a date range is one contiguous run of ranks.
  const lo = p.until === undefined ? 0 : firstRankOnOrBefore(index.dates, dayNumber(p.until));
  const hi = p.since === undefined ? index.count : firstRankOnOrBefore(index.dates, dayNumber(p.since) - 1);
  if (lists.length === 0 && bitmaps.length === 0) return rangeOf(lo, hi);
  if (lists.length === 0) return listOf(intersectBitmaps(bitmaps, lo, hi));
  lists.sort((a, b) => a.length - b.length);
  let acc: Postings = clip(lists[0], lo, hi);
  for (const l of lists.slice(1)) {
    if (acc.length === 0) break;
    acc = intersect(acc, l);
  }
  return listOf(filterByBitmaps(acc, bitmaps));
}

/** The envelope without its reviews, and the ranks of the reviews on the page in result order. */
export type SearchPage =
  | { ok: true; envelope: Omit<SearchResult, "reviews">; ranks: number[] }
  | { ok: false; issues: Issue[] };
export type SearchOutcome = { ok: true; result: SearchResult; ranks: number[] } | { ok: false; issues: Issue[] };

/** Every match of one filter set in result order; a pure function of the index and the filters. */
export interface Ordered {
  /** The filter set these are the matches of (a page's limit and cursor left out). */
  filters: SearchFilters;
  ordered: RankList;
  scoreAt: (i: number) => number;
  /** Rank entries held, for a cache's budget. */
  size: number;
}

/** Where callers may keep `Ordered` results between requests (the sidecar keeps one per build). */
export interface SearchMemo {
  get(fingerprint: string): Ordered | undefined;
  set(fingerprint: string, value: Ordered): void;
}

/** Candidates at least one in this many ranks of their span are scored by one scan over the span. */
const DENSE_SPAN_PER_CANDIDATE = 16;

function orderedMatches(index: ReviewIndex, p: SearchFilters): Ordered {
  if (p.match === "words" && p.query !== undefined) return orderedWordMatches(index, p, queryWordKeys(p.query));
  const filters = filtersOf(p);
  const q = p.query === undefined ? undefined : foldText(p.query);
  let candidates = candidateRanks(index, p, q);
  if (p.aspect !== undefined || p.aspect_polarity !== undefined)
    candidates = listOf(withAspect(index, candidates, p.aspect, p.aspect_polarity));
  const sort = sortOf(p);
  // Rank order is newest first; relevance orders by score first and rank second; other sorts reorder the ranks.
  if (q === undefined || sort !== "relevance") {
    const matches = q === undefined ? candidates : scored(index, candidates, q).matches;
    const { ordered, primaryAt } = orderRanks(index, matches, sort);
    return { filters, ordered, scoreAt: primaryAt, size: Math.max(1, ordered.length) };
  }
  const { matches, scores, maxScore } = scored(index, candidates, q);
  const found = matches.length;
  // Counting sort by score, descending; candidates come in rank order, so ties stay newest first.
  const starts = new Int32Array(maxScore + 2);
  for (let i = 0; i < found; i++) starts[maxScore - scores[i] + 1]++;
  for (let s = 1; s < starts.length; s++) starts[s] += starts[s - 1];
  const sortedRanks = new Int32Array(found);
  const sortedScores = new Int32Array(found);
  for (let i = 0; i < found; i++) {
    const at = starts[maxScore - scores[i]]++;
    sortedRanks[at] = matches.at(i);
    sortedScores[at] = scores[i];
  }
  return { filters, ordered: listOf(sortedRanks), scoreAt: (i) => sortedScores[i], size: Math.max(1, found) };
}

/** match=words: the structured filters as for a substring, then the word postings instead of the text. */
function orderedWordMatches(index: ReviewIndex, p: SearchFilters, keys: string[]): Ordered {
  const filters = filtersOf(p);
  let candidates = keys.length === 0 ? EMPTY : candidateRanks(index, p, undefined);
  if (p.aspect !== undefined || p.aspect_polarity !== undefined)
    candidates = listOf(withAspect(index, candidates, p.aspect, p.aspect_polarity));
  const matches =
    candidates.length === 0
      ? { ranks: new Int32Array(0), scores: new Int32Array(0) }
      : wordMatches(index, keys, candidates);
  const sort = sortOf(p);
  if (sort !== "relevance") {
    const { ordered, primaryAt } = orderRanks(index, listOf(matches.ranks), sort);
    return { filters, ordered, scoreAt: primaryAt, size: Math.max(1, ordered.length) };
  }
  const { ranks, scores } = byScore(matches);
  return { filters, ordered: listOf(ranks), scoreAt: (i) => scores[i], size: Math.max(1, ranks.length) };
}

/** Why a words query finds nothing to look for, or undefined when it has words. */
function wordlessQuery(p: SearchFilters): Issue | undefined {
  if (p.match !== "words" || p.query === undefined || queryWordKeys(p.query).length > 0) return undefined;
  return {
    path: ["query"],
    code: "no_words",
    message:
      "with match=words the query needs at least one word that is not a stop word (such as the, of, on, to); use match=substring to find it as text",
  };
}

/** The candidates whose folded title or text contains `q`, in rank order, with their relevance. */
function scored(index: ReviewIndex, candidates: RankList, q: string) {
  const qBytes = Buffer.from(q);
  const ranks = new Int32Array(candidates.length);
  const scores = new Int32Array(candidates.length);
  let found = 0;
  let maxScore = 0;
  const first = candidates.length === 0 ? 0 : candidates.at(0);
  const last = candidates.length === 0 ? -1 : candidates.at(candidates.length - 1);
  // Dense candidates: one native scan over their span beats a byte loop per candidate (bench: 100k reviews).
  const span =
    candidates.length * DENSE_SPAN_PER_CANDIDATE >= last - first + 1
      ? index.relevanceOfRange(qBytes, first, last + 1)
      : undefined;
  for (let i = 0; i < candidates.length; i++) {
    const rank = candidates.at(i);
    const score = span ? span[rank - first] : index.relevance(rank, qBytes);
    if (score > 0) {
      ranks[found] = rank;
      scores[found++] = score;
      if (score > maxScore) maxScore = score;
    }
  }
  return { matches: listOf(ranks.subarray(0, found)), scores: scores.subarray(0, found), maxScore };
}

/**
 * Puts the matches of `filters` into `memo` unless they are there: e.g. a new build's memo, filled ahead of its
 * first requests with the filter sets the previous build was asked for most recently.
 */
export function rememberMatches(index: ReviewIndex, filters: SearchFilters, memo: SearchMemo): void {
  const fingerprint = filterFingerprint(filters);
  if (!memo.get(fingerprint)) memo.set(fingerprint, orderedMatches(index, filters));
}

/**
 * One page of results as ranks (callers assemble the reviews, e.g. from the bytes of reviews.json): `p.limit` of
 * them, fewer when their JSON would pass `maxBytes` (at least one).
 */
export function searchPage(
  index: ReviewIndex,
  p: SearchParams,
  memo?: SearchMemo,
  maxBytes = Number.POSITIVE_INFINITY,
): SearchPage {
  const wordless = wordlessQuery(p);
  if (wordless) return { ok: false, issues: [wordless] };
  const fingerprint = filterFingerprint(p);
  let after: SortKey | undefined;
  if (p.cursor !== undefined) {
    const decoded = decodeCursor(p.cursor, fingerprint);
    if (typeof decoded === "string")
      return { ok: false, issues: [{ path: ["cursor"], code: "invalid_cursor", message: decoded }] };
    after = decoded;
  }
  let matches = memo?.get(fingerprint);
  if (!matches) {
    matches = orderedMatches(index, p);
    memo?.set(fingerprint, matches);
  }
  const { ordered, scoreAt } = matches;
  const keyAt = (i: number): SortKey => {
    const r = index.review(ordered.at(i));
    return [scoreAt(i), r.date, r.updated, r.id];
  };
  const oldestFirst = sortOf(p) === "oldest";

  let start = 0;
  if (after) {
    const a = after;
    let lo = 0;
    let hi = ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(keyAt(mid), a, oldestFirst) <= 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const end = pageEnd(index, (i) => ordered.at(i), start, Math.min(ordered.length, start + p.limit), maxBytes);
  const ranks = Array.from({ length: end - start }, (_, k) => ordered.at(start + k));
  const hasMore = end < ordered.length;
  return {
    ok: true,
    ranks,
    envelope: {
      total: ordered.length,
      count: ranks.length,
      limit: p.limit,
      next_cursor: hasMore && end > start ? encodeCursor(fingerprint, keyAt(end - 1)) : null,
    },
  };
}

/** The search with the reviews as objects (MCP, pages, tests). */
export function searchReviews(index: ReviewIndex, p: SearchParams, memo?: SearchMemo): SearchOutcome {
  const page = searchPage(index, p, memo);
  if (!page.ok) return page;
  const reviews: ReviewRecord[] = page.ranks.map((rank) => index.review(rank));
  const { total, count, limit, next_cursor } = page.envelope;
  return { ok: true, ranks: page.ranks, result: { total, count, limit, reviews, next_cursor } };
}
