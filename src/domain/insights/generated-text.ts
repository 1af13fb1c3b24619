// FAQ and summary written from the insights when the business provides no editorial.md. Every sentence is
// a statement about counts the reader can check; the ids of the reviews it rests on go with it.
import type { Insights } from "../schemas/insights.ts";
import type { ReviewsDataset } from "../schemas/published.ts";
import { citable } from "./aspect-insights.ts";

type Parts = Pick<Insights, "aspects" | "entities">;

const pct = (x: number) => `${Math.round(x * 100)}%`;

function praised(parts: Parts) {
  return parts.aspects
    .filter((a) => a.mentions >= 3)
    .sort((a, b) => b.positive - a.positive || (a.aspect < b.aspect ? -1 : 1))
    .slice(0, 3);
}

function criticised(parts: Parts) {
  return parts.aspects
    .filter((a) => a.negative > 0)
    .sort((a, b) => b.negative - a.negative || (a.aspect < b.aspect ? -1 : 1))
    .slice(0, 2);
}

/** Reviews cited for a claim: the aspects' examples of that polarity whose own rating does not contradict it. */
function exampleIds(
  aspects: Insights["aspects"],
  polarity: "positive" | "negative",
  reviews: ReviewsDataset["reviews"],
): string[] {
  const ids = new Set(
    aspects.flatMap((a) => a.examples.filter((e) => e.polarity === polarity).map((e) => e.review_id)),
  );
  // The ratings of these few reviews only (a map of every review cost a tenth of a second at 100k reviews).
  const rating = new Map<string, number>();
  // Examples are taken newest first, so the scan ends early (ids are unique: validateContent).
  for (const r of reviews) {
    if (rating.size === ids.size) break;
    if (ids.has(r.id)) rating.set(r.id, r.rating);
  }
  return [...ids].filter((id) => citable(rating.get(id) ?? 0, polarity));
}

export function generatedFaq(dataset: ReviewsDataset, parts: Parts): Insights["faq"] {
  const { business, aggregate_rating: agg, reviews } = dataset;
  const items: Insights["faq"]["items"] = [];
  if (agg.review_count === 0) return { generated: true, items };
  items.push({
    question: `How do customers rate ${business.name}?`,
    answer: `${agg.rating_value} out of 5 from ${agg.review_count} verified reviews; ${pct(agg.distribution[5] / agg.review_count)} give 5 stars and ${pct((agg.distribution[1] + agg.distribution[2]) / agg.review_count)} give 1 or 2.`,
  });
  const good = praised(parts);
  if (good.length) {
    items.push({
      question: "What do customers praise most?",
      answer: good
        .map((a) => `${a.label.toLowerCase()} (${a.positive} positive mentions, ${pct(a.share_positive)} of all)`)
        .join(", "),
      review_ids: exampleIds(good, "positive", reviews),
    });
  }
  const bad = criticised(parts);
  if (bad.length) {
    items.push({
      question: "What do customers complain about?",
      answer: bad.map((a) => `${a.label.toLowerCase()} (${a.negative} negative mentions)`).join(" and "),
      review_ids: exampleIds(bad, "negative", reviews),
    });
  }
  const techs = parts.entities.technicians.filter((t) => t.reviews > 0).slice(0, 3);
  if (techs.length) {
    items.push({
      question: "Which technicians do reviews mention most?",
      answer: techs.map((t) => `${t.name} (${t.reviews} reviews, average ${t.average_rating} stars)`).join(", "),
    });
  }
  const low = reviews.filter((r) => r.rating <= 2);
  if (low.length) {
    const answered = low.filter((r) => r.response).length;
    items.push({
      question: `Does ${business.name} respond to negative reviews?`,
      answer: `The business has replied to ${answered} of ${low.length} reviews with 1 or 2 stars (${pct(answered / low.length)}).`,
    });
  }
  return { generated: true, items };
}

export function generatedSummary(dataset: ReviewsDataset, parts: Parts): Insights["summary"] {
  const { business, aggregate_rating: agg, reviews } = dataset;
  if (agg.review_count === 0)
    return { generated: true, text: `${business.name} has no published reviews yet.`, review_ids: [] };
  const oldest = reviews.at(-1)?.date;
  const newest = reviews[0]?.date;
  const good = praised(parts);
  const bad = criticised(parts);
  const tech = parts.entities.technicians.find((t) => t.reviews > 0);
  const sentences = [
    `Across ${agg.review_count} verified reviews from ${oldest} to ${newest}, customers rate ${business.name} ${agg.rating_value} out of 5.`,
  ];
  if (good.length) sentences.push(`Reviewers most often praise ${good.map((a) => a.label.toLowerCase()).join(", ")}.`);
  if (bad.length)
    sentences.push(
      `The most frequent criticism concerns ${bad.map((a) => `${a.label.toLowerCase()} (${a.negative} negative mentions)`).join(" and ")}.`,
    );
  if (tech)
    sentences.push(
      `${tech.name} is the technician named most (${tech.reviews} reviews, average ${tech.average_rating} stars).`,
    );
  return {
    generated: true,
    text: sentences.join(" "),
    review_ids: [...new Set([...exampleIds(good, "positive", reviews), ...exampleIds(bad, "negative", reviews)])],
  };
}
