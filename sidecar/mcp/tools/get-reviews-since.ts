import { SinceResult, SinceToolParams } from "../../../src/domain/schemas/api.ts";
import { sincePage } from "../../../src/domain/since.ts";
import { reviewListBody } from "../../build-store/review-list-body.ts";
import { defineTool } from "./tool.ts";

export const getReviewsSinceTool = defineTool({
  name: "get_reviews_since",
  title: "Reviews since a date",
  description:
    "Returns the verified reviews dated on or after `date` (YYYY-MM-DD), oldest first, a page at a time: {since, count, total, limit, next_cursor, reviews}. limit 1-100, default 20 (fewer when the reviews are long: about 28 KB of reviews a page); pass next_cursor as cursor, with the same date, for the next page (null on the last). The same reviews as GET /api/reviews/since/{date}. Use it to catch up on what changed since a known day.",
  input: SinceToolParams,
  output: SinceResult,
  run: (snapshot, args, reviewBytes) => {
    const found = sincePage(snapshot.index, args, reviewBytes);
    if (!found.ok) return found;
    return { ok: true, json: reviewListBody(snapshot, found.page.envelope, found.page.ranks) };
  },
});
