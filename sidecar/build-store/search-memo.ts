// The search's match lists, remembered per build for every caller (REST, MCP, pages): a new page of a filter
// set already seen costs O(limit), whichever way it is asked for. A new build's memo is filled before the build
// is switched in, with the filter sets last asked of the old one, so the first requests after a reload do not
// each pay a full search on the event loop (bench/reload.ts: longest stall and probe p99 during a reload).
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { PerBuildCache } from "../../src/domain/per-build-cache.ts";
import { type Ordered, rememberMatches } from "../../src/domain/search/search-reviews.ts";
import type { Snapshot } from "./snapshot.ts";

/** Rank entries kept per build across every remembered filter set. */
const MATCHES_BUDGET = 2_000_000;
/** Filter sets carried over to a new build (most recently used first); each is one turn of the event loop. */
const WARM_FILTER_SETS = 32;
/** Warming stops starting new filter sets after this long, so it never delays a switch by much. */
const WARM_BUDGET_MS = 250;
const matches = new PerBuildCache<Ordered>(MATCHES_BUDGET, (o) => o.size);

export const searchMemoOf = (snapshot: Snapshot) => matches.of(snapshot);

/**
 * Computes, for `next`, the matches of the filter sets `previous` was asked for most recently: one filter set
 * per turn of the event loop, so requests still being answered from `previous` wait for one search at most;
 * none started after `budgetMs` (those are computed by their first request, as without warming).
 */
export async function warmSearchMemo(previous: Snapshot, next: Snapshot, budgetMs = WARM_BUDGET_MS): Promise<void> {
  const memo = searchMemoOf(next);
  const until = performance.now() + budgetMs;
  for (const { filters } of matches.recent(previous, WARM_FILTER_SETS)) {
    await yieldToLoop();
    if (performance.now() > until) return;
    rememberMatches(next.index, filters, memo);
  }
}
