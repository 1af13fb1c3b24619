// Generated summary and FAQ never cite a review whose own rating contradicts the claim, and the insights
// count review labels, mixed included, while records keep the three search labels.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import type { ReviewLabel } from "@rps/review-analysis";
import { aggregateRating } from "../../src/domain/aggregate.ts";
import { buildInsights } from "../../src/domain/insights/build-insights.ts";
import { createReviewPublisher, type PublishedContent } from "../../src/domain/publish-reviews.ts";
import { BusinessContent } from "../../src/domain/schemas/content.ts";
import { Insights } from "../../src/domain/schemas/insights.ts";
import type { ReviewRecord } from "../../src/domain/schemas/published.ts";
import { ROOT } from "../helpers/paths.ts";

const business = BusinessContent.parse(JSON.parse(await readFile(`${ROOT}/content/business.json`, "utf8")));
const texts: [number, string][] = [
  [5, "Leak fixed same day in 83702. The office was slow to call us back, but the work was perfect."],
  [5, "The office never called back to confirm, yet the repair itself was flawless and quick."],
  [1, "The office never called back and the repair failed within a week."],
  [1, "The technician was friendly enough but the furnace broke again a week later."],
  [2, "Nobody from the office called back for days and the bill was outrageous."],
  [5, "Friendly technician, fair price and a careful, tidy installation."],
  [4, "Rude receptionist on the phone, great technician at the house."],
];

function published(): PublishedContent {
  const publish = createReviewPublisher(business);
  const reviews: ReviewRecord[] = [];
  const namedInText = new Map();
  const reviewLabels = new Map<string, ReviewLabel>();
  for (const [i, [rating, text]] of texts.entries()) {
    const id = `r${i}`;
    const r = publish(id, { rating, date: `2025-0${i + 1}-01`, text, author: "A", verified: true });
    reviews.push(r.record);
    namedInText.set(id, r.named);
    reviewLabels.set(id, r.label);
  }
  reviews.reverse();
  return {
    dataset: { business, aggregate_rating: aggregateRating(reviews), reviews },
    namedInText,
    reviewLabels,
    contactDetails: [],
  };
}

test("no generated text cites a review whose rating contradicts its claim", () => {
  const content = published();
  const insights = Insights.parse(buildInsights(content));
  const rating = new Map(content.dataset.reviews.map((r) => [r.id, r.rating]));
  for (const a of insights.aspects)
    for (const e of a.examples) {
      if (e.polarity === "positive")
        assert.ok((rating.get(e.review_id) ?? 0) >= 3, `${a.aspect} praise ${e.review_id}`);
      if (e.polarity === "negative")
        assert.ok((rating.get(e.review_id) ?? 9) <= 3, `${a.aspect} criticism ${e.review_id}`);
    }
  const praise = insights.faq.items.find((q) => q.question.includes("praise"));
  const complaints = insights.faq.items.find((q) => q.question.includes("complain"));
  assert.ok(complaints?.review_ids?.length, "the complaints answer cites reviews");
  for (const id of complaints?.review_ids ?? []) assert.ok((rating.get(id) ?? 9) <= 3, `complaint cites ${id}`);
  for (const id of praise?.review_ids ?? []) assert.ok((rating.get(id) ?? 0) >= 3, `praise cites ${id}`);
  for (const id of insights.summary.review_ids) assert.ok(rating.has(id));
  // The 5-star reviews do contain criticism of the office, so only the rating rule keeps them out.
  const communication = content.dataset.reviews.filter(
    (r) => r.rating === 5 && r.aspects.some((a) => a.aspect === "communication" && a.polarity === "negative"),
  );
  assert.ok(communication.length >= 1);
});

test("review labels: mixed counted in the insights, records keep positive/neutral/negative", () => {
  const content = published();
  const insights = buildInsights(content);
  const counts = insights.review_labels;
  assert.equal(counts.positive + counts.neutral + counts.negative + counts.mixed, texts.length);
  assert.ok(counts.mixed >= 1, JSON.stringify(counts));
  for (const r of content.dataset.reviews) assert.ok(["positive", "neutral", "negative"].includes(r.sentiment.label));
  assert.match(insights.method.analysis_version, /sentiment@/);
});
