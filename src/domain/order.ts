import type { ReviewRecord } from "./schemas/published.ts";

type Orderable = Pick<ReviewRecord, "id" | "date" | "updated">;

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Newest first: date descending, then `updated` descending, then id ascending. Total and deterministic. */
export function compareNewest(a: Orderable, b: Orderable): number {
  return cmp(b.date, a.date) || cmp(b.updated, a.updated) || cmp(a.id, b.id);
}

/** Oldest first: the exact reverse of compareNewest on date and updated, id ascending. */
export function compareOldest(a: Orderable, b: Orderable): number {
  return cmp(a.date, b.date) || cmp(a.updated, b.updated) || cmp(a.id, b.id);
}

/** The newest `updated` of a list (RFC 3339, UTC), or undefined when empty. */
export function newestUpdated(reviews: readonly Pick<ReviewRecord, "updated">[]): string | undefined {
  let max: string | undefined;
  for (const r of reviews) if (max === undefined || r.updated > max) max = r.updated;
  return max;
}
