// Keyphrases: candidate noun-phrase-like runs (review-parts.ts), ranked by TF-IDF over reviews with a bonus
// for multi-word phrases; subsumed phrases dropped.
import { aspectCues, labelOf } from "@rps/review-analysis";
import type { Aspect } from "../schemas/common.ts";
import type { Insights } from "../schemas/insights.ts";
import type { ReviewRecord } from "../schemas/published.ts";
import { round } from "./aspect-insights.ts";
import type { ReviewInsightParts } from "./review-parts.ts";

const MAX_TOPICS = 25;

/**
 * `parts`: each review's candidates (review-parts.ts), made with the same business, in the order of `reviews`.
 * Reviews are handled by rank (their position in `reviews`), so no per-review lookup in a map.
 */
export function topicInsights(
  reviews: readonly ReviewRecord[],
  parts: readonly Pick<ReviewInsightParts, "phrases">[],
): Insights["topics"] {
  const docs = new Map<string, number[]>();
  for (let rank = 0; rank < reviews.length; rank++) {
    for (const c of parts[rank].phrases) {
      const list = docs.get(c);
      if (list) list.push(rank);
      else docs.set(c, [rank]);
    }
  }
  const n = reviews.length;
  const minDf = Math.max(3, Math.ceil(n * 0.005));
  const scored = [...docs]
    .map(([phrase, rs]) => ({ phrase, rs, words: phrase.split(" ").length }))
    .filter(({ rs, words }) => rs.length >= (words === 1 ? 2 * minDf : minDf) && rs.length < n * 0.5)
    .map(({ phrase, rs, words }) => ({ phrase, rs, score: rs.length * Math.log(n / rs.length) * words }))
    .sort((a, b) => b.score - a.score || (a.phrase < b.phrase ? -1 : 1));
  const chosen: typeof scored = [];
  for (const cand of scored) {
    if (chosen.length >= MAX_TOPICS) break;
    const overlaps = chosen.some(
      (c) =>
        (c.phrase.includes(cand.phrase) || cand.phrase.includes(c.phrase)) &&
        Math.min(c.rs.length, cand.rs.length) >= 0.6 * Math.max(c.rs.length, cand.rs.length),
    );
    if (!overlaps) chosen.push(cand);
  }
  // Each review's aspect quotes lowercased once (a topic's reviews can be half of all reviews, for 25 topics).
  const lowered: (string[] | undefined)[] = new Array(reviews.length);
  const quotesOf = (rank: number) => {
    let quotes = lowered[rank];
    if (!quotes) {
      quotes = reviews[rank].aspects.map((a) => a.quote.toLowerCase());
      lowered[rank] = quotes;
    }
    return quotes;
  };
  return chosen.map(({ phrase, rs }) => {
    let sum = 0;
    for (const rank of rs) sum += reviews[rank].sentiment.score;
    const score = round(sum / rs.length);
    const serviceCounts = new Map<string, number>();
    for (const rank of rs) {
      for (const s of reviews[rank].mentions.services) serviceCounts.set(s, (serviceCounts.get(s) ?? 0) + 1);
    }
    const aspects = new Set<Aspect>(aspectCues(phrase).map((c) => c.aspect));
    const aspectCounts = new Map<Aspect, number>();
    for (const rank of rs) {
      const quotes = quotesOf(rank);
      const list = reviews[rank].aspects;
      for (let i = 0; i < list.length; i++) {
        if (quotes[i].includes(phrase)) aspectCounts.set(list[i].aspect, (aspectCounts.get(list[i].aspect) ?? 0) + 1);
      }
    }
    for (const [a, c] of aspectCounts) if (c >= rs.length / 3) aspects.add(a);
    return {
      phrase,
      reviews: rs.length,
      sentiment: { score, label: labelOf(score) },
      services: [...serviceCounts]
        .filter(([, c]) => c >= rs.length / 3)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([s]) => s),
      aspects: [...aspects].sort(),
      review_ids: rs.slice(0, 5).map((rank) => reviews[rank].id),
    };
  });
}
