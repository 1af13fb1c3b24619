// The search's filters beyond the index's postings (aspects) and its orders other than newest first and relevance.
import type { SearchParams, SearchSort } from "../schemas/api.ts";
import type { ReviewIndex } from "./review-index.ts";

/** Review ranks in result order, without materialising a range. */
export interface RankList {
  length: number;
  at(i: number): number;
}

/** The sort a search uses: `sort`, else relevance with a query and newest first without. */
export const sortOf = (p: Pick<SearchParams, "sort" | "query">): SearchSort =>
  p.sort ?? (p.query === undefined ? "newest" : "relevance");

/**
 * The ranks of `ranks` whose review has a published aspect matching `aspect` and/or `polarity` (both on the same
 * aspect entry), from the index's aspect postings.
 */
export function withAspect(
  index: ReviewIndex,
  ranks: RankList,
  aspect: string | undefined,
  polarity: string | undefined,
): number[] {
  const marked = new Uint8Array(index.count);
  const list = index.aspect(aspect, polarity);
  for (let i = 0; i < list.length; i++) marked[list[i]] = 1;
  const out: number[] = [];
  for (let i = 0; i < ranks.length; i++) {
    const rank = ranks.at(i);
    if (marked[rank]) out.push(rank);
  }
  return out;
}

const ratingColumns = new WeakMap<ReviewIndex, Uint8Array>();
/** Each rank's rating, from the rating postings (once per index). */
function ratingsOf(index: ReviewIndex): Uint8Array {
  let column = ratingColumns.get(index);
  if (!column) {
    column = new Uint8Array(index.count);
    for (let r = 1; r <= 5; r++) for (const rank of index.ratings(r)) column[rank] = r;
    ratingColumns.set(index, column);
  }
  return column;
}

/** Matches in one order, with the primary sort value of each (cursor.ts's SortKey). */
export interface SortedRanks {
  ordered: RankList;
  primaryAt: (i: number) => number;
}

const listOf = (a: Int32Array | readonly number[]): RankList => ({ length: a.length, at: (i) => a[i] });

/** `ranks` (ascending, so newest first) in the order of a sort other than relevance. */
export function orderRanks(index: ReviewIndex, ranks: RankList, sort: SearchSort): SortedRanks {
  if (sort === "oldest") {
    // One walk over the oldest-first column keeps the members: linear, no comparison sort.
    const member = new Uint8Array(index.count);
    for (let i = 0; i < ranks.length; i++) member[ranks.at(i)] = 1;
    const out = new Int32Array(ranks.length);
    let n = 0;
    for (const rank of index.oldest) if (member[rank]) out[n++] = rank;
    return { ordered: listOf(out), primaryAt: () => 0 };
  }
  if (sort === "highest" || sort === "lowest") {
    // Buckets by rating, each kept in rank order: newest first within a rating.
    const rating = ratingsOf(index);
    const starts = new Int32Array(7);
    for (let i = 0; i < ranks.length; i++)
      starts[(sort === "highest" ? 6 - rating[ranks.at(i)] : rating[ranks.at(i)]) + 1]++;
    for (let s = 1; s < starts.length; s++) starts[s] += starts[s - 1];
    const out = new Int32Array(ranks.length);
    for (let i = 0; i < ranks.length; i++) {
      const rank = ranks.at(i);
      out[starts[sort === "highest" ? 6 - rating[rank] : rating[rank]]++] = rank;
    }
    const sign = sort === "highest" ? 1 : -1;
    return { ordered: listOf(out), primaryAt: (i) => sign * rating[out[i]] };
  }
  return { ordered: ranks, primaryAt: () => 0 };
}
