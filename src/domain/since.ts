import type { SinceResult } from "./schemas/api.ts";
import type { ReviewRecord } from "./schemas/published.ts";

/** Reviews dated on or after `date`, oldest first. `oldestFirst` must be sorted by compareOldest. */
export function reviewsSince(oldestFirst: readonly ReviewRecord[], date: string): SinceResult {
  let lo = 0;
  let hi = oldestFirst.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (oldestFirst[mid].date < date) lo = mid + 1;
    else hi = mid;
  }
  const reviews = oldestFirst.slice(lo);
  return { since: date, count: reviews.length, reviews };
}
