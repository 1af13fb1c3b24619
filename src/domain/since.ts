import type { SinceResult } from "./schemas/api.ts";
import { dayNumber } from "./search/index-keys.ts";
import type { ReviewIndex } from "./search/review-index.ts";

export interface SinceRanks {
  /** Ranks of the reviews dated on or after the date, oldest first. */
  ranks: Int32Array;
  /** Newest `updated` among them (epoch ms), or undefined when there are none. */
  newestUpdated: number | undefined;
}

/** Reviews dated on or after `date`, oldest first, as ranks of the index. */
export function sinceRanks(index: ReviewIndex, date: string): SinceRanks {
  const day = dayNumber(date);
  let lo = 0;
  let hi = index.oldest.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.dates[index.oldest[mid]] < day) lo = mid + 1;
    else hi = mid;
  }
  return {
    ranks: index.oldest.subarray(lo),
    newestUpdated: lo < index.oldest.length ? index.sinceNewest[lo] : undefined,
  };
}

/** The since answer with the reviews as objects (MCP, tests). */
export function reviewsSince(index: ReviewIndex, date: string): SinceResult {
  const { ranks } = sinceRanks(index, date);
  return { since: date, count: ranks.length, reviews: Array.from(ranks, (rank) => index.review(rank)) };
}
