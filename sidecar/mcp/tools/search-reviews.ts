import { SearchParams, SearchResult } from "../../../src/domain/schemas/api.ts";
import { searchReviews } from "../../../src/domain/search/search-reviews.ts";
import { searchBody } from "../../routes/reviews-search.ts";
import { defineTool } from "./tool.ts";

export const searchReviewsTool = defineTool({
  name: "search_reviews",
  title: "Search reviews",
  description:
    "Searches verified reviews; the same parameters and results as GET /api/reviews/search. Filters combine with AND: rating (exact 1-5), min_rating, since/until (YYYY-MM-DD, inclusive), query (case-insensitive text; results then ordered by relevance), mentions_technician (id, name or alias), mentions_service (service id from get_business). Returns {total, count, limit, reviews, next_cursor}; pass next_cursor as cursor, with the same filters, for the next page. limit 1-100, default 20.",
  input: SearchParams,
  output: SearchResult,
  run: (snapshot, args) => {
    const out = searchReviews(snapshot.index, args);
    return out.ok ? { ok: true, value: out.result, text: searchBody(snapshot, out).toString("utf8") } : out;
  },
});
