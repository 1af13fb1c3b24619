import type { Mentions } from "../analysis/mentions.ts";
import { labelOf } from "../analysis/sentiment.ts";
import type { Aspect } from "../schemas/common.ts";
import type { Insights } from "../schemas/insights.ts";
import type { Business, ReviewRecord } from "../schemas/published.ts";
import { polarityScore, round } from "./aspect-insights.ts";

type Kind = "technicians" | "services" | "service_areas";

/** `namedInText`: per review id, what its own words name (from the publisher; tags excluded). */
export function entityInsights(
  business: Business,
  reviews: readonly ReviewRecord[],
  namedInText: ReadonlyMap<string, Mentions>,
): Insights["entities"] {
  const forKind = (kind: Kind) => {
    // One pass over the reviews: each entity's linked reviews, newest first like `reviews`.
    const linkedTo = new Map<string, ReviewRecord[]>(business[kind].map((e) => [e.id, []]));
    for (const r of reviews) for (const id of r.mentions[kind]) linkedTo.get(id)?.push(r);
    return business[kind]
      .map((entity) => {
        const linked = linkedTo.get(entity.id) ?? [];
        const named = linked.filter((r) => namedInText.get(r.id)?.[kind].includes(entity.id)).length;
        const aspects = new Map<Aspect, { positive: number; negative: number; mentions: number }>();
        for (const r of linked) {
          for (const a of r.aspects) {
            const c = aspects.get(a.aspect) ?? { positive: 0, negative: 0, mentions: 0 };
            c.mentions++;
            if (a.polarity !== "neutral") c[a.polarity]++;
            aspects.set(a.aspect, c);
          }
        }
        const score = linked.length ? round(linked.reduce((s, r) => s + r.sentiment.score, 0) / linked.length) : 0;
        return {
          id: entity.id,
          name: entity.name,
          mentions: named,
          reviews: linked.length,
          average_rating: linked.length ? round(linked.reduce((s, r) => s + r.rating, 0) / linked.length, 2) : null,
          sentiment: { score, label: labelOf(score) },
          top_aspects: [...aspects]
            .sort((a, b) => b[1].mentions - a[1].mentions || (a[0] < b[0] ? -1 : 1))
            .slice(0, 3)
            .map(([aspect, c]) => ({ aspect, mentions: c.mentions, score: polarityScore(c) })),
        };
      })
      .sort((a, b) => b.reviews - a.reviews || (a.id < b.id ? -1 : 1));
  };
  return {
    technicians: forKind("technicians"),
    services: forKind("services"),
    service_areas: forKind("service_areas"),
  };
}
