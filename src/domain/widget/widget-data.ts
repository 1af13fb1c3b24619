// The widget's files for one build: for the whole business and for each catalogue entry, a summary (rating and
// aspects) and a short list of reviews. Never the whole dataset: a list's bytes do not grow with the reviews.
import { aggregateRating } from "../aggregate.ts";
import { reviewUrl } from "../feeds/feed-items.ts";
import { ASPECT_LABELS } from "../insights/aspect-insights.ts";
import { type EntityKind, entityPath, PAGE_PATHS } from "../pages/site-paths.ts";
import { ASPECTS, type Aspect } from "../schemas/common.ts";
import type { ReviewRecord, ReviewsDataset } from "../schemas/published.ts";
import {
  WIDGET_ENTITY_FIELDS,
  WIDGET_FORMAT,
  WIDGET_MAX_COUNT,
  WIDGET_TEXT_CHARS,
  type WidgetEntity,
  widgetDataPaths,
} from "./widget-paths.ts";
import type { WidgetReview, WidgetReviews, WidgetSummary } from "./widget-schema.ts";

/** The widget's attribute name -> the kind of page the entity has. */
const PAGE_KIND: Record<WidgetEntity, EntityKind> = { technician: "technicians", service: "services", area: "areas" };

const BRAND_COLOR = /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/;

/** `text` cut at the last space before `max` characters (a whole word), with an ellipsis. */
export function shortText(text: string, max = WIDGET_TEXT_CHARS): { text: string; truncated: boolean } {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return { text: flat, truncated: false };
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return { text: `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "")}…`, truncated: true };
}

/**
 * The reviews any `sort`, `min-rating` and `count` can show, newest first: for each minimum rating the newest
 * WIDGET_MAX_COUNT at or above it, and the best WIDGET_MAX_COUNT (higher rating, then newer; those above any minimum
 * come first in it). One pass: `reviews` is newest first, so the first WIDGET_MAX_COUNT of a rating are its newest.
 */
export function listedReviews(reviews: readonly ReviewRecord[]): ReviewRecord[] {
  const newestOf: ReviewRecord[][] = [[], [], [], [], [], []];
  /** How many reviews at or above each minimum rating were seen so far. */
  const atLeast = [0, 0, 0, 0, 0, 0];
  const kept = new Set<ReviewRecord>();
  for (const r of reviews) {
    if (newestOf[r.rating].length < WIDGET_MAX_COUNT) newestOf[r.rating].push(r);
    let needed = false;
    for (let min = 1; min <= r.rating; min++) if (atLeast[min]++ < WIDGET_MAX_COUNT) needed = true;
    if (needed) kept.add(r);
  }
  for (const r of [5, 4, 3, 2, 1].flatMap((rating) => newestOf[rating]).slice(0, WIDGET_MAX_COUNT)) kept.add(r);
  return reviews.filter((r) => kept.has(r));
}

const ASPECT_INDEX = new Map<Aspect, number>(ASPECTS.map((a, i) => [a, i]));

/** Counts in arrays by aspect (not objects in a map): this runs over every review once per slice it belongs to. */
function aspectsOf(reviews: readonly ReviewRecord[]): WidgetSummary["aspects"] {
  const counts = { positive: ASPECTS.map(() => 0), negative: ASPECTS.map(() => 0), neutral: ASPECTS.map(() => 0) };
  const reviewCounts = ASPECTS.map(() => 0);
  /** The last review counted for each aspect: a review that names an aspect twice counts once. */
  const last = ASPECTS.map(() => -1);
  for (let i = 0; i < reviews.length; i++) {
    for (const a of reviews[i].aspects) {
      const k = ASPECT_INDEX.get(a.aspect) as number;
      counts[a.polarity][k]++;
      if (last[k] !== i) reviewCounts[k]++;
      last[k] = i;
    }
  }
  // Most discussed first; ties in the catalogue's order.
  return ASPECTS.flatMap((aspect, k) =>
    reviewCounts[k] === 0
      ? []
      : [
          {
            aspect,
            label: ASPECT_LABELS[aspect],
            reviews: reviewCounts[k],
            positive: counts.positive[k],
            negative: counts.negative[k],
            neutral: counts.neutral[k],
          },
        ],
  ).sort((a, b) => b.reviews - a.reviews);
}

function compact(baseUrl: string, r: ReviewRecord): WidgetReview {
  return {
    id: r.id,
    url: reviewUrl(baseUrl, r.id),
    date: r.date,
    rating: r.rating,
    author: r.author,
    ...(r.title ? { title: r.title } : {}),
    ...shortText(r.text),
    language: r.language,
    responded: r.response !== undefined,
  };
}

/** Every widget file of a build, by URL path, as JSON text. */
export function widgetFiles(baseUrl: string, dataset: ReviewsDataset): Map<string, string> {
  const { business } = dataset;
  const brand = (business as { brand_color?: unknown }).brand_color;
  const head = {
    format: WIDGET_FORMAT,
    business: {
      name: business.name,
      url: business.url,
      reviews_url: `${baseUrl}${PAGE_PATHS.reviews}`,
      brand_color: typeof brand === "string" && BRAND_COLOR.test(brand) ? brand : null,
    },
  } as const;
  const files = new Map<string, string>();
  const add = (
    slice: WidgetSummary["slice"],
    reviews: readonly ReviewRecord[],
    entity?: { kind: WidgetEntity; id: string },
  ) => {
    const summary: WidgetSummary = { ...head, slice, rating: aggregateRating(reviews), aspects: aspectsOf(reviews) };
    const list: WidgetReviews = { ...summary, reviews: listedReviews(reviews).map((r) => compact(baseUrl, r)) };
    const paths = widgetDataPaths(entity);
    files.set(paths.summary, JSON.stringify(summary));
    files.set(paths.reviews, JSON.stringify(list));
  };
  add({ kind: "all", id: null, name: business.name, url: head.business.reviews_url }, dataset.reviews);
  for (const [kind, field] of Object.entries(WIDGET_ENTITY_FIELDS) as [
    WidgetEntity,
    (typeof WIDGET_ENTITY_FIELDS)[WidgetEntity],
  ][]) {
    const byId = new Map<string, ReviewRecord[]>(business[field].map((e) => [e.id, []]));
    for (const r of dataset.reviews) for (const id of r.mentions[field]) byId.get(id)?.push(r);
    for (const entry of business[field]) {
      const slice = { kind, id: entry.id, name: entry.name, url: `${baseUrl}${entityPath(PAGE_KIND[kind], entry.id)}` };
      add(slice, byId.get(entry.id) ?? [], { kind, id: entry.id });
    }
  }
  return files;
}
