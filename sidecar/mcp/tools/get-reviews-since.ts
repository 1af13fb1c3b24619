import { SinceParams, SinceResult } from "../../../src/domain/schemas/api.ts";
import { reviewsSince } from "../../../src/domain/since.ts";
import { defineTool } from "./tool.ts";

export const getReviewsSinceTool = defineTool({
  name: "get_reviews_since",
  title: "Reviews since a date",
  description:
    "Returns every verified review dated on or after `date` (YYYY-MM-DD), oldest first: the same as GET /api/reviews/since/{date}. Use it to catch up on what changed since a known day.",
  input: SinceParams,
  output: SinceResult,
  run: (snapshot, { date }) => ({ ok: true, value: reviewsSince(snapshot.index, date) }),
});
