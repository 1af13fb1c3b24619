// Keyphrases: candidate noun-phrase-like runs (review-parts.ts), ranked by TF-IDF over reviews with a bonus
// for multi-word phrases; subsumed phrases dropped.
import { aspectCues } from "../analysis/analyze-text.ts";
import { labelOf } from "../analysis/sentiment.ts";
import type { Aspect } from "../schemas/common.ts";
import type { Insights } from "../schemas/insights.ts";
import type { ReviewRecord } from "../schemas/published.ts";
import { round } from "./aspect-insights.ts";
import type { InsightPartsOf } from "./review-parts.ts";

const MAX_TOPICS = 25;

/** `partsOf`: each review's candidates (review-parts.ts), made with the same business. */
export function topicInsights(reviews: readonly ReviewRecord[], partsOf: InsightPartsOf): Insights["topics"] {
  const docs = new Map<string, ReviewRecord[]>();
  for (const r of reviews) {
    for (const c of partsOf(r).phrases) {
      const list = docs.get(c);
      if (list) list.push(r);
      else docs.set(c, [r]);
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
  const lowered = new Map<ReviewRecord, string[]>();
  const quotesOf = (r: ReviewRecord) => {
    let quotes = lowered.get(r);
    if (!quotes) {
      quotes = r.aspects.map((a) => a.quote.toLowerCase());
      lowered.set(r, quotes);
    }
    return quotes;
  };
  return chosen.map(({ phrase, rs }) => {
    const score = round(rs.reduce((s, r) => s + r.sentiment.score, 0) / rs.length);
    const serviceCounts = new Map<string, number>();
    for (const r of rs) for (const s of r.mentions.services) serviceCounts.set(s, (serviceCounts.get(s) ?? 0) + 1);
    const aspects = new Set<Aspect>(aspectCues(phrase).map((c) => c.aspect));
    const aspectCounts = new Map<Aspect, number>();
    for (const r of rs) {
      const quotes = quotesOf(r);
      r.aspects.forEach((a, i) => {
        if (quotes[i].includes(phrase)) aspectCounts.set(a.aspect, (aspectCounts.get(a.aspect) ?? 0) + 1);
      });
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
      review_ids: rs.slice(0, 5).map((r) => r.id),
    };
  });
}
