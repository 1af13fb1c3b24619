import { closeBidi } from "../../../src/domain/bidi.ts";
import { resolvedBy, unknownNameIssues } from "../../../src/domain/closest-names.ts";
import { SearchToolParams, SearchToolResult } from "../../../src/domain/schemas/api.ts";
import type { ReviewRecord } from "../../../src/domain/schemas/published.ts";
import { searchPage } from "../../../src/domain/search/search-reviews.ts";
import { reviewListBody } from "../../build-store/review-list-body.ts";
import { searchMemoOf } from "../../build-store/search-memo.ts";
import { defineTool } from "./tool.ts";

const EXCERPT_CHARS = 160;

/** A review in a few fields, for scanning many at once. */
function compactReview(r: ReviewRecord) {
  const text = r.text.length > EXCERPT_CHARS ? `${r.text.slice(0, EXCERPT_CHARS - 1).trimEnd()}…` : r.text;
  return {
    id: r.id,
    rating: r.rating,
    date: r.date,
    ...(r.title ? { title: r.title } : {}),
    excerpt: closeBidi(text),
    aspects: r.aspects.map(({ aspect, polarity }) => ({ aspect, polarity })),
  };
}

export const searchReviewsTool = defineTool({
  name: "search_reviews",
  title: "Search reviews",
  description:
    "Searches verified reviews; the same parameters and results as GET /api/reviews/search. Filters combine with AND: rating (exact 1-5), min_rating, since/until (YYYY-MM-DD, inclusive), query (case-insensitive text; match=words: all words, any order), mentions_technician, mentions_service, mentions_area (id, name or alias from get_business, any case; an unknown one is an error naming the nearest), aspect + aspect_polarity (e.g. cleanliness, negative). sort: newest (default), oldest, highest, lowest, relevance (default with query). Returns {total, count, limit, reviews, next_cursor}; pass next_cursor as cursor, with the same filters, for the next page. limit 1-100, default 20; a page holds fewer when the reviews are long (about 28 KB of reviews at most), and next_cursor goes on from there. view=compact: id, rating, date, title, excerpt and aspects of each (get_review for a whole record).",
  input: SearchToolParams,
  output: SearchToolResult,
  run: (snapshot, args, reviewBytes) => {
    const { index } = snapshot;
    const { view, ...params } = args;
    const page = searchPage(
      snapshot.index,
      params,
      searchMemoOf(snapshot),
      view === "compact" ? 4 * reviewBytes : reviewBytes,
    );
    // What REST refuses with a 400 (a bad cursor, a words query without words) is refused first, the same way.
    if (!page.ok) return page;
    const unknown = unknownNameIssues(snapshot.dataset.business, args, resolvedBy(index));
    // REST answers an empty result for an unknown name (SPEC); an agent is told what exists instead.
    if (unknown.length > 0) return { ok: false, issues: unknown };
    if (view === "compact")
      return { ok: true, value: { ...page.envelope, reviews: page.ranks.map((r) => compactReview(index.review(r))) } };
    // The REST answer's bytes: both the text block and the structured value come from them.
    return { ok: true, json: reviewListBody(snapshot, page.envelope, page.ranks) };
  },
});
