import type { Aspect, Sentiment } from "../schemas/common.ts";
import { ASPECTS } from "../schemas/common.ts";
import type { Insights } from "../schemas/insights.ts";
import type { ReviewRecord } from "../schemas/published.ts";
import type { ReviewInsightParts } from "./review-parts.ts";

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

interface AspectTally {
  counts: { positive: number; negative: number; neutral: number; mentions: number };
  /** Reviews that mention the aspect; `last` is the latest counted (a review can mention an aspect twice). */
  reviews: number;
  last: ReviewRecord | undefined;
  quarters: Map<string, { positive: number; negative: number; mentions: number }>;
  terms: Map<string, number>;
  examples: Record<Sentiment, { review_id: string; polarity: Sentiment; quote: string }[]>;
}

/** `reviews` newest first; `parts` their cues (review-parts.ts), in the same order. One pass over the reviews. */
export function aspectInsights(
  reviews: readonly ReviewRecord[],
  parts: readonly Pick<ReviewInsightParts, "cues">[],
): Insights["aspects"] {
  const tallies = new Map<Aspect, AspectTally>(
    ASPECTS.map((aspect) => [
      aspect,
      {
        counts: { positive: 0, negative: 0, neutral: 0, mentions: 0 },
        reviews: 0,
        last: undefined,
        quarters: new Map(),
        terms: new Map(),
        examples: { positive: [], negative: [], neutral: [] },
      },
    ]),
  );
  for (let rank = 0; rank < reviews.length; rank++) {
    const r = reviews[rank];
    if (r.aspects.length === 0) continue;
    const q = quarterOf(r.date);
    const cues = parts[rank].cues;
    for (let i = 0; i < r.aspects.length; i++) {
      const a = r.aspects[i];
      const t = tallies.get(a.aspect);
      if (!t) continue;
      t.counts[a.polarity]++;
      t.counts.mentions++;
      // Review ids are unique (validateContent): a count, not a set of 100,000 ids per aspect.
      if (t.last !== r) {
        t.reviews++;
        t.last = r;
      }
      const qc = t.quarters.get(q) ?? { positive: 0, negative: 0, mentions: 0 };
      qc.mentions++;
      if (a.polarity !== "neutral") qc[a.polarity]++;
      t.quarters.set(q, qc);
      for (const cue of cues[i]) t.terms.set(cue, (t.terms.get(cue) ?? 0) + 1);
      const list = t.examples[a.polarity];
      if (list.length < EXAMPLES_PER_POLARITY && a.quote.length >= 20 && citable(r.rating, a.polarity))
        list.push({ review_id: r.id, polarity: a.polarity, quote: a.quote });
    }
  }
  return ASPECTS.map((aspect) => {
    const { counts, reviews, quarters, terms, examples } = tallies.get(aspect) as AspectTally;
    return {
      aspect,
      label: ASPECT_LABELS[aspect],
      mentions: counts.mentions,
      reviews,
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
