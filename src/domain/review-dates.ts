// Date rules a schema cannot express: nothing dated in the future, no owner response before its review.
import type { ReviewContent } from "./schemas/content.ts";

/**
 * Days a date may run ahead of the build's UTC date: a review written today in a time zone east of UTC
 * is dated "tomorrow" in UTC.
 */
export const FUTURE_TOLERANCE_DAYS = 1;

/** `YYYY-MM-DD` plus `days`, as `YYYY-MM-DD`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The latest date allowed on a build dated `today` (the last one asked, kept: a build asks for one date). */
let lastAllowed = { today: "", date: "" };
function latestAllowed(today: string): string {
  if (lastAllowed.today !== today) lastAllowed = { today, date: addDays(today, FUTURE_TOLERANCE_DAYS) };
  return lastAllowed.date;
}

/** Problems with a valid review's dates, as field and reason; `today` is the build's UTC date. */
export function reviewDateProblems(
  review: Pick<ReviewContent, "date" | "updated" | "response">,
  today: string,
): { field: string; reason: string }[] {
  const latest = latestAllowed(today);
  const problems: { field: string; reason: string }[] = [];
  if (review.date > latest)
    problems.push({ field: "date", reason: `${review.date} is in the future (today is ${today})` });
  if (review.updated && new Date(review.updated).toISOString().slice(0, 10) > latest) {
    problems.push({ field: "updated", reason: `${review.updated} is in the future (today is ${today})` });
  }
  if (review.response) {
    if (review.response.date < review.date) {
      problems.push({
        field: "response.date",
        reason: `the owner response (${review.response.date}) is dated before the review (${review.date})`,
      });
    } else if (review.response.date > latest) {
      problems.push({ field: "response.date", reason: `${review.response.date} is in the future (today is ${today})` });
    }
  }
  return problems;
}
