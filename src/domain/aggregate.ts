import type { AggregateRating, ReviewRecord } from "./schemas/published.ts";

export function aggregateRating(reviews: readonly Pick<ReviewRecord, "rating">[]): AggregateRating {
  const distribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  let sum = 0;
  for (const r of reviews) {
    distribution[r.rating as 1 | 2 | 3 | 4 | 5]++;
    sum += r.rating;
  }
  const count = reviews.length;
  return {
    rating_value: count === 0 ? 0 : Math.round((sum / count) * 100) / 100,
    review_count: count,
    best_rating: 5,
    worst_rating: 1,
    distribution,
  };
}
