// A Google Business Profile export (the JSON of accounts.locations.reviews.list: one page or an array of pages)
// -> imported reviews. Photo URLs are never kept; anonymous reviewers become ANONYMOUS_AUTHOR.
import * as z from "zod";
import { detectLanguage, originalText } from "./google-translation.ts";
import {
  ANONYMOUS_AUTHOR,
  type ImportedField,
  type ImportedReview,
  type ParsedExport,
  parseDateOrDateTime,
  type RowProblem,
  stableId,
} from "./imported-review.ts";

export const GOOGLE_SOURCE = "google";
const STARS = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 } as const;

const Timestamp = z.string().refine((s) => parseDateOrDateTime(s)?.dateTime !== undefined, "not an RFC 3339 date-time");

const GoogleReview = z.object({
  reviewId: z.string().min(1),
  reviewer: z.object({ displayName: z.string().optional(), isAnonymous: z.boolean().optional() }).optional(),
  starRating: z.enum(Object.keys(STARS) as [keyof typeof STARS], "must be ONE, TWO, THREE, FOUR or FIVE"),
  comment: z.string().optional(),
  createTime: Timestamp,
  updateTime: Timestamp.optional(),
  reviewReply: z.object({ comment: z.string(), updateTime: Timestamp.optional() }).optional(),
});
type GoogleReview = z.infer<typeof GoogleReview>;

const Page = z.object({ reviews: z.array(z.unknown()).optional() });
const Export = z.union([Page, z.array(Page)]);

function toImported(r: GoogleReview, where: string): ImportedReview {
  const created = parseDateOrDateTime(r.createTime);
  const updated = r.updateTime ? parseDateOrDateTime(r.updateTime) : undefined;
  const comment = originalText(r.comment ?? "");
  const name = r.reviewer?.displayName?.trim();
  // A reply of white space only is no reply (it would be published as an empty owner response).
  const replyText = r.reviewReply && originalText(r.reviewReply.comment).text;
  const reply = replyText?.trim() ? replyText : undefined;
  const replyDate =
    r.reviewReply && parseDateOrDateTime(r.reviewReply.updateTime ?? r.updateTime ?? r.createTime)?.date;
  const owned: ImportedField[] = ["rating", "date", "updated", "text", "author", "source", "response"];
  if (comment.translated) owned.push("language");
  return {
    id: stableId(GOOGLE_SOURCE, r.reviewId),
    where,
    owned,
    content: {
      rating: STARS[r.starRating],
      date: created?.date,
      updated: updated?.dateTime ?? created?.dateTime,
      text: comment.text,
      author: r.reviewer?.isAnonymous || !name ? ANONYMOUS_AUTHOR : name,
      source: GOOGLE_SOURCE,
      ...(comment.translated ? { language: detectLanguage(comment.text) } : {}),
      ...(reply && replyDate ? { response: { text: reply, date: replyDate } } : {}),
    },
  };
}

/** Parses the export's text; a review that does not fit is a problem naming its index and field. */
export function parseGoogleExport(text: string): ParsedExport {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    return {
      reviews: [],
      problems: [{ where: "file", field: "", reason: `not valid JSON (${(e as Error).message})` }],
    };
  }
  const top = Export.safeParse(json);
  if (!top.success) {
    const reason = "expected the JSON of reviews.list: an object with a reviews array, or an array of such objects";
    return { reviews: [], problems: [{ where: "file", field: "", reason }] };
  }
  const pages = Array.isArray(top.data) ? top.data : [top.data];
  const byId = new Map<string, { review: ImportedReview; updated: string }>();
  const problems: RowProblem[] = [];
  pages.forEach((page, p) => {
    (page.reviews ?? []).forEach((raw, i) => {
      const where = `${Array.isArray(top.data) ? `[${p}].` : ""}reviews[${i}]`;
      const parsed = GoogleReview.safeParse(raw);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          problems.push({ where, field: issue.path.join("."), reason: issue.message });
        }
        return;
      }
      const review = toImported(parsed.data, where);
      // Overlapping pages: the latest version of a review wins.
      const updated = review.content.updated ?? "";
      const seen = byId.get(review.id);
      if (!seen || seen.updated < updated) byId.set(review.id, { review, updated });
    });
  });
  return { reviews: [...byId.values()].map((v) => v.review), problems };
}
