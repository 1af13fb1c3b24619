// The widget's files against an oracle over random datasets: whatever `sort`, `min-rating`, `count` and entity a
// list asks for, the short list in its slice's file gives exactly the reviews the whole dataset would; every file
// matches its schema; texts are cut only at word boundaries and never grow.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { ASPECTS } from "../../src/domain/schemas/common.ts";
import type { Business, ReviewRecord, ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { shortText, widgetFiles } from "../../src/domain/widget/widget-data.ts";
import {
  WIDGET_ENTITY_FIELDS,
  WIDGET_MAX_COUNT,
  WIDGET_TEXT_CHARS,
  type WidgetEntity,
  widgetDataPaths,
} from "../../src/domain/widget/widget-paths.ts";
import { WidgetReviews, WidgetSummary } from "../../src/domain/widget/widget-schema.ts";
import type { Settings } from "../../src/widget/attributes.ts";
import { chosenReviews } from "../../src/widget/render.ts";

const BASE = "https://reviews.example";
const IDS = ["a", "b", "c"];

const catalog = (prefix: string) => IDS.map((id) => ({ id: `${prefix}-${id}`, name: `${prefix} ${id}` }));
const business = {
  name: "Test & Sons <Plumbing>",
  url: "https://example.com",
  address: { street_address: "1 Main St", locality: "Town", region: "ST", postal_code: "1", country: "US" },
  technicians: catalog("t"),
  services: catalog("s"),
  service_areas: catalog("a"),
} as unknown as Business;

const review = fc
  .record({
    rating: fc.integer({ min: 1, max: 5 }),
    text: fc.string({ maxLength: 400 }),
    technicians: fc.subarray(business.technicians.map((e) => e.id)),
    services: fc.subarray(business.services.map((e) => e.id)),
    service_areas: fc.subarray(business.service_areas.map((e) => e.id)),
    aspects: fc.array(
      fc.record({
        aspect: fc.constantFrom(...ASPECTS),
        polarity: fc.constantFrom("positive", "negative", "neutral" as const),
      }),
      { maxLength: 3 },
    ),
  })
  .map(
    (r): Omit<ReviewRecord, "id" | "date" | "updated"> => ({
      rating: r.rating,
      text: r.text,
      author: "A. B.",
      source: "direct",
      language: "en",
      mentions: { technicians: r.technicians, services: r.services, service_areas: r.service_areas },
      sentiment: { score: 0, label: "neutral" },
      aspects: r.aspects.map((a) => ({ ...a, quote: "" })),
    }),
  );

/** Newest first, as the published dataset is. */
const datasets = fc.array(review, { maxLength: 150, size: "max" }).map((parts): ReviewsDataset => {
  const reviews = parts.map((p, i) => {
    const day = new Date(Date.UTC(2026, 0, 1) - i * 86_400_000).toISOString().slice(0, 10);
    return { ...p, id: `r${i}`, date: day, updated: `${day}T00:00:00Z` };
  });
  return { business, aggregate_rating: {} as ReviewsDataset["aggregate_rating"], reviews };
});

/** Every `sort`, `min-rating` and `count` a list accepts. */
const ALL_SETTINGS = (["newest", "best"] as const).flatMap((sort) =>
  [1, 2, 3, 4, 5].flatMap((minRating) =>
    Array.from({ length: WIDGET_MAX_COUNT }, (_, i) => ({ sort, minRating, count: i + 1 })),
  ),
);

function oracle(
  dataset: ReviewsDataset,
  entity: { kind: WidgetEntity; id: string } | undefined,
  s: Pick<Settings, "sort" | "minRating" | "count">,
) {
  const field = entity && WIDGET_ENTITY_FIELDS[entity.kind];
  const matching = dataset.reviews.filter(
    (r) => r.rating >= s.minRating && (!entity || r.mentions[field as "services"].includes(entity.id)),
  );
  if (s.sort === "best") matching.sort((a, b) => b.rating - a.rating || b.date.localeCompare(a.date));
  return matching.slice(0, s.count).map((r) => r.id);
}

test("every list the widget can ask for equals the oracle over the whole dataset", () => {
  fc.assert(
    fc.property(datasets, (dataset) => {
      const files = widgetFiles(BASE, dataset);
      const entities = [
        undefined,
        ...(Object.keys(WIDGET_ENTITY_FIELDS) as WidgetEntity[]).flatMap((kind) =>
          business[WIDGET_ENTITY_FIELDS[kind]].map((e) => ({ kind, id: e.id })),
        ),
      ];
      for (const entity of entities) {
        const list = WidgetReviews.parse(JSON.parse(files.get(widgetDataPaths(entity).reviews) as string));
        for (const s of ALL_SETTINGS) {
          const shown = chosenReviews(list, { ...s, variant: "list", entity, theme: "auto", lang: "en" }).map(
            (r) => r.id,
          );
          assert.deepEqual(shown, oracle(dataset, entity, s), JSON.stringify({ entity, s }));
        }
      }
    }),
    { numRuns: 60 },
  );
});

test("each slice's summary has its reviews' aggregate and aspects, and a list never holds more than 100 reviews", () => {
  fc.assert(
    fc.property(datasets, (dataset) => {
      const files = widgetFiles(BASE, dataset);
      assert.equal(files.size, 2 * (1 + 3 * IDS.length));
      for (const [path, body] of files) {
        const parsed = path.endsWith(".reviews.json")
          ? WidgetReviews.parse(JSON.parse(body))
          : WidgetSummary.parse(JSON.parse(body));
        const { kind, id } = parsed.slice;
        const own =
          kind === "all"
            ? dataset.reviews
            : dataset.reviews.filter((r) => r.mentions[WIDGET_ENTITY_FIELDS[kind]].includes(id ?? ""));
        assert.equal(parsed.rating.review_count, own.length, path);
        const mentioning = ASPECTS.map((a) => own.filter((r) => r.aspects.some((x) => x.aspect === a)).length);
        assert.deepEqual(
          parsed.aspects.map((a) => a.reviews).sort((x, y) => y - x),
          mentioning.filter((n) => n > 0).sort((x, y) => y - x),
          path,
        );
        if ("reviews" in parsed) assert.ok((parsed as WidgetReviews).reviews.length <= 5 * WIDGET_MAX_COUNT);
      }
    }),
    { numRuns: 60 },
  );
});

test("a text is cut at a word boundary below the limit, ends with an ellipsis, and is a prefix of the original", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 800 }), (text) => {
      const flat = text.replace(/\s+/g, " ").trim();
      const short = shortText(text);
      assert.ok(short.text.length <= WIDGET_TEXT_CHARS);
      if (!short.truncated) assert.equal(short.text, flat);
      else {
        assert.ok(short.text.endsWith("…"));
        assert.ok(flat.startsWith(short.text.slice(0, -1)));
      }
    }),
  );
  const words = "word ".repeat(100);
  assert.equal(shortText(words).text, `${"word ".repeat(55).trim()}…`);
});

test("the brand colour is published only as #rgb or #rrggbb", () => {
  const colour = (brand_color: unknown) => {
    const dataset = { business: { ...business, brand_color }, aggregate_rating: {}, reviews: [] };
    const files = widgetFiles(BASE, dataset as unknown as ReviewsDataset);
    return WidgetSummary.parse(JSON.parse(files.get(widgetDataPaths().summary) as string)).business.brand_color;
  };
  assert.equal(colour("#0A7D55"), "#0A7D55");
  assert.equal(colour("#fa0"), "#fa0");
  for (const bad of ["red", "#12345", "#000}:host{display:none", 7, undefined]) assert.equal(colour(bad), null);
});
