import { aspectCues } from "../analysis/analyze-text.ts";
import type { Aspect, Sentiment } from "../schemas/common.ts";
import { ASPECTS } from "../schemas/common.ts";
import type { Insights } from "../schemas/insights.ts";
import type { ReviewRecord } from "../schemas/published.ts";

export const ASPECT_LABELS: Record<Aspect, string> = {
  punctuality: "Punctuality",
  professionalism: "Professionalism",
  workmanship: "Workmanship",
  price_value: "Price and value",
  communication: "Communication",
  cleanliness: "Cleanliness",
  speed: "Speed",
  friendliness: "Friendliness",
  scheduling: "Scheduling and availability",
};

export const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

export function quarterOf(date: string): string {
  return `${date.slice(0, 4)}-Q${Math.ceil(Number(date.slice(5, 7)) / 3)}`;
}

export function polarityScore(counts: { positive: number; negative: number; mentions: number }): number {
  return counts.mentions === 0 ? 0 : round((counts.positive - counts.negative) / counts.mentions);
}

const EXAMPLES_PER_POLARITY = 2;

/**
 * Whether a review may be cited for a claim of this polarity: never a 1-2 star review as praise nor a 4-5
 * star review as criticism ("Leak fixed same day", 5 stars, is no example of a complaint).
 */
export function citable(rating: number, polarity: Sentiment): boolean {
  if (polarity === "positive") return rating >= 3;
  if (polarity === "negative") return rating <= 3;
  return true;
}

/** `reviews` newest first. */
export function aspectInsights(reviews: readonly ReviewRecord[]): Insights["aspects"] {
  return ASPECTS.map((aspect) => {
    const counts = { positive: 0, negative: 0, neutral: 0, mentions: 0 };
    const reviewIds = new Set<string>();
    const quarters = new Map<string, { positive: number; negative: number; mentions: number }>();
    const terms = new Map<string, number>();
    const examples: Record<Sentiment, { review_id: string; polarity: Sentiment; quote: string }[]> = {
      positive: [],
      negative: [],
      neutral: [],
    };
    for (const r of reviews) {
      for (const a of r.aspects) {
        if (a.aspect !== aspect) continue;
        counts[a.polarity]++;
        counts.mentions++;
        reviewIds.add(r.id);
        const q = quarterOf(r.date);
        const qc = quarters.get(q) ?? { positive: 0, negative: 0, mentions: 0 };
        qc.mentions++;
        if (a.polarity !== "neutral") qc[a.polarity]++;
        quarters.set(q, qc);
        for (const c of aspectCues(a.quote)) if (c.aspect === aspect) terms.set(c.cue, (terms.get(c.cue) ?? 0) + 1);
        const list = examples[a.polarity];
        if (list.length < EXAMPLES_PER_POLARITY && a.quote.length >= 20 && citable(r.rating, a.polarity))
          list.push({ review_id: r.id, polarity: a.polarity, quote: a.quote });
      }
    }
    return {
      aspect,
      label: ASPECT_LABELS[aspect],
      mentions: counts.mentions,
      reviews: reviewIds.size,
      positive: counts.positive,
      negative: counts.negative,
      neutral: counts.neutral,
      score: polarityScore(counts),
      share_positive: counts.mentions ? round(counts.positive / counts.mentions) : 0,
      share_negative: counts.mentions ? round(counts.negative / counts.mentions) : 0,
      trend: [...quarters]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([quarter, c]) => ({ quarter, mentions: c.mentions, score: polarityScore(c) })),
      top_terms: [...terms]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 8)
        .map(([term, count]) => ({ term, count })),
      examples: [...examples.positive, ...examples.negative],
    };
  });
}
