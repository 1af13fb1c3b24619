// The search's match lists, remembered per build for every caller (REST, MCP, pages): a new page of a filter
// set already seen costs O(limit), whichever way it is asked for.
import type { Ordered } from "../../src/domain/search/search-reviews.ts";
import { PerBuildCache } from "./per-build-cache.ts";
import type { Snapshot } from "./snapshot.ts";

/** Rank entries kept per build across every remembered filter set. */
const MATCHES_BUDGET = 2_000_000;
const matches = new PerBuildCache<Ordered>(MATCHES_BUDGET, (o) => o.size);

export const searchMemoOf = (snapshot: Snapshot) => matches.of(snapshot);
