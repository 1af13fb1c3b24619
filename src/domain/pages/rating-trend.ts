// Rating over time for the home and technician pages: the monthly average and count of the last months up to the
// newest review (never the clock, so a page depends on its data only), and whether the recent months stand apart.

import type { ReviewIndex } from "../search/review-index.ts";

export const TREND_MONTHS = 24;
export const RECENT_MONTHS = 3;
/** Stars by which the recent average must differ from the long-run one to be pointed out. */
export const TREND_NOTE_STARS = 0.3;

export interface TrendMonth {
  /** YYYY-MM */
  month: string;
  count: number;
  /** Mean rating, 2 decimals; null in a month without reviews. */
  average: number | null;
}

export interface RatingTrend {
  months: TrendMonth[];
  longRun: number;
  recent: number | null;
  /** Set when the last RECENT_MONTHS differ from the long-run average by more than TREND_NOTE_STARS. */
  note: string | null;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthOf = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;

/** `points`: [date (YYYY-MM-DD…), rating] of every review counted; null when there are none. */
export function ratingTrend(points: Iterable<readonly [string, number]>): RatingTrend | null {
  const sums = new Map<number, { count: number; sum: number }>();
  let count = 0;
  let sum = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (const [date, rating] of points) {
    const m = monthIndex(date);
    const s = sums.get(m) ?? { count: 0, sum: 0 };
    s.count++;
    s.sum += rating;
    sums.set(m, s);
    count++;
    sum += rating;
    if (m > last) last = m;
  }
  if (count === 0) return null;
  const months: TrendMonth[] = [];
  for (let m = last - TREND_MONTHS + 1; m <= last; m++) {
    const s = sums.get(m);
    months.push({ month: monthOf(m), count: s?.count ?? 0, average: s ? round2(s.sum / s.count) : null });
  }
  const recentMonths = months.slice(-RECENT_MONTHS);
  const recentCount = recentMonths.reduce((n, m) => n + m.count, 0);
  const recentSum = recentMonths.reduce((n, m) => n + (sums.get(monthIndex(m.month))?.sum ?? 0), 0);
  const longRun = round2(sum / count);
  const recent = recentCount === 0 ? null : round2(recentSum / recentCount);
  const note =
    recent !== null && Math.abs(recent - longRun) > TREND_NOTE_STARS
      ? `The last ${RECENT_MONTHS} months average ${recent} stars, ${recent > longRun ? "above" : "below"} the long-run ${longRun}.`
      : null;
  return { months, longRun, recent, note };
}

/** [date, rating] of every review of a search index, read from its columns (no review is parsed). */
export function* indexRatingPoints(index: ReviewIndex): Generator<readonly [string, number]> {
  for (let rating = 1; rating <= 5; rating++)
    for (const rank of index.ratings(rating))
      yield [new Date(index.dates[rank] * 86_400_000).toISOString().slice(0, 10), rating] as const;
}
