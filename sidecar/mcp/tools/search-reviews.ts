import { SearchParams, SearchResult } from "../../../src/domain/schemas/api.ts";
import { searchPage } from "../../../src/domain/search/search-reviews.ts";
import { reviewListBody } from "../../build-store/review-list-body.ts";
import { searchMemoOf } from "../../build-store/search-memo.ts";
import { defineTool } from "./tool.ts";

export const searchReviewsTool = defineTool({
  name: "search_reviews",
  title: "Search reviews",
  description:
    "Searches verified reviews; the same parameters and results as GET /api/reviews/search. Filters combine with AND: rating (exact 1-5), min_rating, since/until (YYYY-MM-DD, inclusive), query (case-insensitive text), mentions_technician (id, name or alias), mentions_service (service id from get_business), aspect + aspect_polarity (e.g. cleanliness, negative). sort: newest (default), oldest, highest, lowest, relevance (default with query). Returns {total, count, limit, reviews, next_cursor}; pass next_cursor as cursor, with the same filters, for the next page. limit 1-100, default 20; a page holds fewer when the reviews are long (about 28 KB of reviews at most), and next_cursor goes on from there.",
  input: SearchParams,
  output: SearchResult,
  run: (snapshot, args, reviewBytes) => {
    const page = searchPage(snapshot.index, args, searchMemoOf(snapshot), reviewBytes);
    if (!page.ok) return page;
    // The REST answer's bytes: both the text block and the structured value come from them.
    return { ok: true, json: reviewListBody(snapshot, page.envelope, page.ranks) };
  },
});
