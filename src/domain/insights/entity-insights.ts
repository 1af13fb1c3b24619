import { labelOf, type Mentions } from "@rps/review-analysis";
import type { Aspect } from "../schemas/common.ts";
import type { Insights } from "../schemas/insights.ts";
import type { Business, ReviewRecord } from "../schemas/published.ts";
import { polarityScore, round } from "./aspect-insights.ts";

const KINDS = ["technicians", "services", "service_areas"] as const;
type Kind = (typeof KINDS)[number];

interface Tally {
  named: number;
  reviews: number;
  /** Sums of the linked reviews' sentiment scores and ratings, in the order of the reviews. */
  score: number;
  rating: number;
  aspects: Map<Aspect, { positive: number; negative: number; mentions: number }>;
}

/** `namedInText`: per review id, what its own words name (from the publisher; tags excluded). */
export function entityInsights(
  business: Business,
  reviews: readonly ReviewRecord[],
  namedInText: ReadonlyMap<string, Mentions>,
): Insights["entities"] {
  // One pass over the reviews for every kind: each entity's tallies, summed in the order of `reviews`.
  const tallyOf = (kind: Kind) => {
    const byId = new Map<string, Tally>();
    for (const e of business[kind]) byId.set(e.id, { named: 0, reviews: 0, score: 0, rating: 0, aspects: new Map() });
    return byId;
  };
  const kinds = {
    technicians: tallyOf("technicians"),
    services: tallyOf("services"),
    service_areas: tallyOf("service_areas"),
  };
  for (const r of reviews) {
    const named = namedInText.get(r.id);
    for (const kind of KINDS) {
      const ids = r.mentions[kind];
      if (ids.length === 0) continue;
      for (const id of ids) {
        const t = kinds[kind].get(id);
        if (!t) continue;
        if (named?.[kind].includes(id)) t.named++;
        t.reviews++;
        t.score += r.sentiment.score;
        t.rating += r.rating;
        for (const a of r.aspects) {
          const c = t.aspects.get(a.aspect) ?? { positive: 0, negative: 0, mentions: 0 };
          c.mentions++;
          if (a.polarity !== "neutral") c[a.polarity]++;
          t.aspects.set(a.aspect, c);
        }
      }
    }
  }
  const forKind = (kind: Kind) =>
    business[kind]
      .map((entity) => {
        const t = kinds[kind].get(entity.id) as Tally;
        const score = t.reviews ? round(t.score / t.reviews) : 0;
        return {
          id: entity.id,
          name: entity.name,
          mentions: t.named,
          reviews: t.reviews,
          average_rating: t.reviews ? round(t.rating / t.reviews, 2) : null,
          sentiment: { score, label: labelOf(score) },
          top_aspects: [...t.aspects]
            .sort((a, b) => b[1].mentions - a[1].mentions || (a[0] < b[0] ? -1 : 1))
            .slice(0, 3)
            .map(([aspect, c]) => ({ aspect, mentions: c.mentions, score: polarityScore(c) })),
        };
      })
      .sort((a, b) => b.reviews - a.reviews || (a.id < b.id ? -1 : 1));
  return {
    technicians: forKind("technicians"),
    services: forKind("services"),
    service_areas: forKind("service_areas"),
  };
}
