// Keyset cursors: the sort key of the last review on a page plus a fingerprint of the filters, so a cursor
// survives a rebuild (no skipped or repeated reviews) and cannot be replayed against other filters.
import { sha256Hex } from "../hash.ts";
import type { SearchParams } from "../schemas/api.ts";

/**
 * [primary, date, updated, id]. primary is what the sort ranks by before the date: the relevance (sort relevance
 * with a query), the rating (highest), minus the rating (lowest), else 0.
 */
export type SortKey = [number, string, string, string];

/** A filter set: every search parameter but a page's limit and cursor. */
export type SearchFilters = Omit<SearchParams, "limit" | "cursor">;

/** `p` without a page's limit and cursor. */
export function filtersOf(p: SearchFilters): SearchFilters {
  const { limit: _limit, cursor: _cursor, ...filters } = p as Partial<SearchParams>;
  // The default said out loud is the same filter set (one memo entry, cursors valid for both).
  if (filters.match === "substring") delete filters.match;
  return filters;
}

/** What identifies a filter set. */
export function filterFingerprint(p: SearchFilters): string {
  const canonical = Object.entries(filtersOf(p))
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return sha256Hex(JSON.stringify(canonical)).slice(0, 12);
}

export function encodeCursor(fingerprint: string, key: SortKey): string {
  return Buffer.from(JSON.stringify([fingerprint, ...key])).toString("base64url");
}

export function decodeCursor(cursor: string, fingerprint: string): SortKey | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return "cursor is not a value returned as next_cursor";
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 5 ||
    typeof parsed[1] !== "number" ||
    !parsed.slice(2).every((x) => typeof x === "string")
  ) {
    return "cursor is not a value returned as next_cursor";
  }
  if (parsed[0] !== fingerprint) return "cursor belongs to a search with other filters";
  return parsed.slice(1) as SortKey;
}

/**
 * Result order: primary descending, then newest first (date, updated descending), then id ascending; with
 * `oldestFirst`, oldest first (date, updated ascending), then id ascending (compareOldest).
 */
export function compareKeys(a: SortKey, b: SortKey, oldestFirst = false): number {
  if (a[0] !== b[0]) return b[0] - a[0];
  const later = oldestFirst ? -1 : 1;
  for (const i of [1, 2] as const) if (a[i] !== b[i]) return a[i] < b[i] ? later : -later;
  return a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0;
}
