// Rating over time: the months up to the newest review, empty months kept, and the note when the recent months
// stand apart from the long-run average.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ratingTrend, TREND_MONTHS } from "../../src/domain/pages/rating-trend.ts";

test("the last months up to the newest review, with counts, averages and empty months", () => {
  const t = ratingTrend([
    ["2023-01-10", 1],
    ["2024-11-02", 4],
    ["2024-11-30", 5],
    ["2025-02-01", 3],
  ]);
  assert.ok(t);
  assert.equal(t.months.length, TREND_MONTHS);
  assert.equal(t.months[0].month, "2023-03");
  assert.equal(t.months.at(-1)?.month, "2025-02");
  assert.deepEqual(
    t.months.find((m) => m.month === "2024-11"),
    { month: "2024-11", count: 2, average: 4.5 },
  );
  assert.deepEqual(
    t.months.find((m) => m.month === "2024-12"),
    { month: "2024-12", count: 0, average: null },
  );
  assert.equal(t.longRun, 3.25, "the long run counts every review, also those before the window");
  assert.equal(t.recent, 3);
  assert.equal(t.note, null, "0.25 stars apart is not pointed out");
  assert.equal(ratingTrend([]), null);
});

test("a note when the last three months differ from the long run by more than 0.3 stars", () => {
  const old = Array.from({ length: 20 }, (_, i) => [`2024-0${1 + (i % 6)}-01`, 5] as const);
  const t = ratingTrend([...old, ["2024-12-05", 3], ["2025-01-05", 4]]);
  assert.ok(t);
  assert.equal(t.recent, 3.5);
  assert.equal(t.longRun, 4.86);
  assert.equal(t.note, "The last 3 months average 3.5 stars, below the long-run 4.86.");
  const better = ratingTrend([
    ["2024-01-01", 2],
    ["2024-02-01", 2],
    ["2024-12-01", 3],
  ]);
  assert.match(better?.note ?? "", /above the long-run 2\.33/);
});
