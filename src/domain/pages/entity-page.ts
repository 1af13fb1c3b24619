// What an entity page (technician, service, service area) shows, derived from the published reviews only.
import { ASPECT_LABELS } from "../insights/aspect-insights.ts";
import type { ReviewRecord } from "../schemas/published.ts";
import type { PageData } from "./page-data.ts";
import { type RatingTrend, ratingTrend } from "./rating-trend.ts";
import { ENTITY_KINDS, type EntityKind } from "./site-paths.ts";

export const NEWEST_ON_ENTITY_PAGE = 10;
export const QUOTES_ON_ENTITY_PAGE = 5;
export const QUARTERS_ON_ENTITY_PAGE = 8;

export interface EntitySummary {
  kind: EntityKind;
  id: string;
  name: string;
  reviewCount: number;
  averageRating: number | null;
}

export interface EntityPageModel extends EntitySummary {
  aspects: { aspect: string; label: string; positive: number; negative: number; mentions: number }[];
  quarters: { quarter: string; reviews: number; averageRating: number }[];
  /** Monthly rating over the last months up to its newest review. */
  trend: RatingTrend | null;
  quotes: { reviewId: string; quote: string; rating: number }[];
  newest: ReviewRecord[];
}

const average = (rs: readonly ReviewRecord[]) =>
  rs.length === 0 ? null : Math.round((rs.reduce((s, r) => s + r.rating, 0) / rs.length) * 100) / 100;

const quarterOf = (date: string) => `${date.slice(0, 4)}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;

type Totals = { count: number; sum: number; lastmod: string; ranks: number[] };

/**
 * Per entity of each kind: count, rating sum, newest `updated` and the ranks of the reviews that mention it
 * (named in the text or tagged). One pass over the reviews, kept per build's page data.
 */
const totalsOf = new WeakMap<object, Record<EntityKind, Map<string, Totals>>>();
function entityTotals(data: Pick<PageData, "allReviews">): Record<EntityKind, Map<string, Totals>> {
  let totals = totalsOf.get(data);
  if (totals) return totals;
  totals = { technicians: new Map(), services: new Map(), areas: new Map() };
  let rank = 0;
  for (const r of data.allReviews()) {
    for (const kind of Object.keys(ENTITY_KINDS) as EntityKind[]) {
      for (const id of r.mentions[ENTITY_KINDS[kind].field]) {
        const t = totals[kind].get(id);
        if (!t) totals[kind].set(id, { count: 1, sum: r.rating, lastmod: r.updated, ranks: [rank] });
        else {
          t.count++;
          t.sum += r.rating;
          t.ranks.push(rank);
          if (r.updated > t.lastmod) t.lastmod = r.updated;
        }
      }
    }
    rank++;
  }
  totalsOf.set(data, totals);
  return totals;
}

/** The reviews that mention an entity (named in the text or tagged), newest first. */
export function reviewsMentioning(data: PageData, kind: EntityKind, id: string): ReviewRecord[] {
  const { index } = data;
  const ranks =
    kind === "technicians"
      ? index.technician(id)
      : kind === "services"
        ? index.service(id)
        : (entityTotals(data)[kind].get(id)?.ranks ?? []);
  return Array.from(ranks, (rank) => index.review(rank));
}

/** Every entity of a kind in catalogue order, with its review count, average rating and newest `updated`. */
export function entityIndex(
  data: Pick<PageData, "dataset" | "allReviews">,
  kind: EntityKind,
): (EntitySummary & { lastmod?: string })[] {
  const totals = entityTotals(data)[kind];
  return data.dataset.business[ENTITY_KINDS[kind].field].map((e) => {
    const t = totals.get(e.id);
    return {
      kind,
      id: e.id,
      name: e.name,
      reviewCount: t?.count ?? 0,
      averageRating: t ? Math.round((t.sum / t.count) * 100) / 100 : null,
      lastmod: t?.lastmod,
    };
  });
}

/** undefined for an id that is not in the catalogue (the page answers 404). */
export function entityPage(data: PageData, kind: EntityKind, id: string): EntityPageModel | undefined {
  const entity = data.dataset.business[ENTITY_KINDS[kind].field].find((e) => e.id === id);
  if (!entity) return undefined;
  const rs = reviewsMentioning(data, kind, id);
  const aspects = new Map<string, { positive: number; negative: number; mentions: number }>();
  const quarters = new Map<string, { reviews: number; sum: number }>();
  for (const r of rs) {
    for (const a of r.aspects) {
      const c = aspects.get(a.aspect) ?? { positive: 0, negative: 0, mentions: 0 };
      c.mentions++;
      if (a.polarity === "positive") c.positive++;
      if (a.polarity === "negative") c.negative++;
      aspects.set(a.aspect, c);
    }
    const q = quarters.get(quarterOf(r.date)) ?? { reviews: 0, sum: 0 };
    q.reviews++;
    q.sum += r.rating;
    quarters.set(quarterOf(r.date), q);
  }
  // Best: the highest ratings first, the newest among equals (the sort is stable and rs is newest first).
  const quotes = rs
    .filter((r) => r.rating >= 4)
    .sort((a, b) => b.rating - a.rating)
    .flatMap((r) =>
      r.aspects
        .filter((a) => a.polarity === "positive")
        .slice(0, 1)
        .map((a) => ({ reviewId: r.id, quote: a.quote, rating: r.rating })),
    )
    .slice(0, QUOTES_ON_ENTITY_PAGE);
  return {
    kind,
    id,
    name: entity.name,
    reviewCount: rs.length,
    averageRating: average(rs),
    trend: ratingTrend(rs.map((r) => [r.date, r.rating] as const)),
    aspects: [...aspects]
      .sort((a, b) => b[1].mentions - a[1].mentions)
      .map(([aspect, c]) => ({
        aspect,
        label: ASPECT_LABELS[aspect as keyof typeof ASPECT_LABELS],
        positive: c.positive / c.mentions,
        negative: c.negative / c.mentions,
        mentions: c.mentions,
      })),
    quarters: [...quarters]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .slice(-QUARTERS_ON_ENTITY_PAGE)
      .map(([quarter, q]) => ({
        quarter,
        reviews: q.reviews,
        averageRating: Math.round((q.sum / q.reviews) * 100) / 100,
      })),
    quotes,
    newest: rs.slice(0, NEWEST_ON_ENTITY_PAGE),
  };
}
