// /insights.json from the sample content and from an editorial.md fixture.
import assert from "node:assert/strict";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { before, test } from "node:test";
import { analyzeByRules, analyzeText, MODEL_VERSION, nameWords, type ReviewLabel } from "@rps/review-analysis";
import { Insights } from "../../src/domain/schemas/insights.ts";
import { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { buildSample, contentFixture, runBuild } from "../helpers/build.ts";
import { tempDir } from "../helpers/paths.ts";

let insights: Insights;
let dataset: ReviewsDataset;

before(async () => {
  const dist = await buildSample();
  insights = Insights.parse(JSON.parse(await readFile(join(dist, "insights.json"), "utf8")));
  dataset = ReviewsDataset.parse(JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")));
});

function ranks(xs: number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) r[order[k][1]] = (i + j) / 2;
    i = j + 1;
  }
  return r;
}

function spearman(a: number[], b: number[]): number {
  const [ra, rb] = [ranks(a), ranks(b)];
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const [ma, mb] = [mean(ra), mean(rb)];
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < ra.length; i++) {
    num += (ra[i] - ma) * (rb[i] - mb);
    da += (ra[i] - ma) ** 2;
    db += (rb[i] - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}

test("aspect counts add up to the aspects of the published reviews", () => {
  let total = 0;
  for (const a of insights.aspects) {
    assert.equal(a.positive + a.negative + a.neutral, a.mentions, a.aspect);
    assert.equal(
      a.trend.reduce((s, q) => s + q.mentions, 0),
      a.mentions,
    );
    total += a.mentions;
    const mentioning = dataset.reviews.filter((r) => r.aspects.some((x) => x.aspect === a.aspect));
    assert.equal(a.reviews, mentioning.length, `${a.aspect}: each review counted once`);
    for (const e of a.examples) {
      const r = dataset.reviews.find((x) => x.id === e.review_id);
      assert.ok(r && (r.text.includes(e.quote) || (r.title ?? "").includes(e.quote)), e.quote);
    }
  }
  assert.equal(
    total,
    dataset.reviews.reduce((s, r) => s + r.aspects.length, 0),
  );
  assert.ok(insights.aspects.length >= 9);
  // Since engine 2.8.0 a review gives each aspect once, with one polarity (the aspect layer): a count of reviews
  // and a count of mentions are the same.
  for (const a of insights.aspects) assert.equal(a.reviews, a.mentions, `${a.aspect}: one mention per review`);
});

test("every entity id exists in the catalog and counts are consistent", () => {
  const b = dataset.business;
  for (const kind of ["technicians", "services", "service_areas"] as const) {
    const ids = new Set(b[kind].map((e) => e.id));
    assert.equal(insights.entities[kind].length, ids.size);
    for (const e of insights.entities[kind]) {
      assert.ok(ids.has(e.id), e.id);
      assert.ok(e.mentions <= e.reviews);
      assert.equal(e.reviews, dataset.reviews.filter((r) => r.mentions[kind].includes(e.id)).length);
    }
  }
  for (const t of insights.topics)
    for (const s of t.services)
      assert.ok(
        b.services.some((x) => x.id === s),
        s,
      );
});

test("without editorial.md the FAQ and summary are generated, flagged, and cite existing reviews", () => {
  assert.equal(insights.faq.generated, true);
  assert.equal(insights.summary.generated, true);
  assert.ok(insights.faq.items.length >= 3);
  const ids = new Set(dataset.reviews.map((r) => r.id));
  for (const id of insights.summary.review_ids) assert.ok(ids.has(id), id);
  assert.match(insights.summary.text, new RegExp(String(dataset.aggregate_rating.rating_value)));
  assert.deepEqual(insights.generated_from, {
    review_count: dataset.reviews.length,
    last_updated:
      dataset.reviews
        .map((r) => r.updated)
        .sort()
        .at(-1) ?? null,
  });
});

test("the review labels are the model's: insights.json names it, counts its labels and publishes its `mixed`", () => {
  assert.equal(insights.method.model, MODEL_VERSION);
  assert.ok(insights.method.analysis_version.includes(MODEL_VERSION));
  const names = nameWords(dataset.business);
  const counts: Record<ReviewLabel, number> = { positive: 0, neutral: 0, negative: 0, mixed: 0 };
  let mixedByTheModelOnly = 0;
  for (const r of dataset.reviews) {
    const parts = r.title ? [r.title, r.text] : [r.text];
    const analysis = analyzeText(parts, names);
    counts[analysis.overall]++;
    assert.deepEqual(r.sentiment, analysis.sentiment, r.id);
    if (analysis.overall === "mixed" && analyzeByRules(parts, names).overall !== "mixed") mixedByTheModelOnly++;
  }
  assert.deepEqual(insights.review_labels, counts);
  assert.ok(mixedByTheModelOnly > 0, "some review is mixed by the model and not by the rules");
});

test("review sentiment correlates with the stars on the sample content (Spearman's rho)", () => {
  const withText = dataset.reviews.filter((r) => r.text.trim());
  const rho = spearman(
    withText.map((r) => r.rating),
    withText.map((r) => r.sentiment.score),
  );
  console.log(`Spearman's rho (stars vs sentiment, ${withText.length} reviews with text): ${rho.toFixed(3)}`);
  assert.ok(rho > 0.5, `rho ${rho}`);
});

test("editorial.md replaces the generated FAQ and summary; a broken one fails the build", async () => {
  const editorial =
    "---\nfaq:\n  - question: Do you offer weekend service?\n    answer: Yes, Saturdays 8 to 2.\n---\nFamily-run since 2009. Our customers mostly write about punctuality.\n";
  const content = await contentFixture({ "editorial.md": editorial });
  const dist = join(await tempDir("dist"), "dist");
  try {
    const ok = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist });
    assert.equal(ok.code, 0, ok.stderr);
    const fromEditorial = Insights.parse(JSON.parse(await readFile(join(dist, "insights.json"), "utf8")));
    assert.deepEqual(fromEditorial.faq, {
      generated: false,
      items: [{ question: "Do you offer weekend service?", answer: "Yes, Saturdays 8 to 2." }],
    });
    assert.equal(fromEditorial.summary.generated, false);
    assert.equal(fromEditorial.summary.text, "Family-run since 2009. Our customers mostly write about punctuality.");

    const broken = await contentFixture({ "editorial.md": "---\nfaq:\n  - question: Only a question\n---\nBody\n" });
    const bad = await runBuild({ CONTENT_DIR: broken, DIST_DIR: dist });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /editorial\.md: faq\.0\.answer/);
    await rm(broken, { recursive: true, force: true });
  } finally {
    await rm(content, { recursive: true, force: true });
  }
});
