// What every import format produces: content fields for one review, where it came from, and row problems.
import { sha256Hex } from "../hash.ts";
import { isRealDate } from "../schemas/common.ts";
import type { ReviewContent } from "../schemas/content.ts";
import { REVIEW_ID } from "../validate-content.ts";

/** The largest export file an import reads. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/** Author of a review whose platform hides or lacks the reviewer's name. */
export const ANONYMOUS_AUTHOR = "Anonymous";

/** The fields an import may speak for; the rest (tags, `private`, `verified`) belong to the people who edit the files. */
export const IMPORTED_FIELDS = [
  "rating",
  "date",
  "updated",
  "title",
  "text",
  "author",
  "source",
  "language",
  "response",
] as const satisfies readonly (keyof ReviewContent)[];
export type ImportedField = (typeof IMPORTED_FIELDS)[number];

export interface ImportedReview {
  id: string;
  /** Where in the export it came from, for messages: "line 7", "reviews[3]". */
  where: string;
  /** Everything the export says about the review, local fields included (used only for a new file). */
  content: Partial<ReviewContent>;
  /** The imported fields this export speaks for: they overwrite an existing file's values (absent = removed). */
  owned: readonly ImportedField[];
}

/** A row or record that cannot be imported: where, which field, why. */
export interface RowProblem {
  where: string;
  field: string;
  reason: string;
}

export interface ParsedExport {
  reviews: ImportedReview[];
  problems: RowProblem[];
  /** Owner replies without a date of their own, dated with their review's date. */
  repliesDatedByReview?: number;
}

/** The longest id a review file's name can hold: file systems allow 255 bytes, ".json" included (ids are ASCII). */
const MAX_ID_IN_FILE_NAME = 255 - ".json".length;

/** Whether an id from an export can be a review file's name as it is (`max`: a shorter cap of the caller's). */
export const usableAsId = (id: string, max = MAX_ID_IN_FILE_NAME): boolean => REVIEW_ID.test(id) && id.length <= max;

/** A review id that is stable across exports: the platform's own id if it is a valid file name, else a hash of it. */
export function stableId(prefix: string, sourceId: string): string {
  const candidate = `${prefix}-${sourceId}`;
  return usableAsId(candidate, 100) ? candidate : `${prefix}-${sha256Hex(sourceId).slice(0, 16)}`;
}

// RFC 3339 / ISO 8601 date-time; a space instead of T and a missing offset (read as UTC) are accepted,
// as spreadsheets write them. Any number of fractional digits (Google writes nine).
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** `YYYY-MM-DD` or a date-time -> the written date and, for a date-time, RFC 3339 in UTC; undefined if invalid. */
export function parseDateOrDateTime(value: string): { date: string; dateTime?: string } | undefined {
  const v = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return isRealDate(v) ? { date: v } : undefined;
  const m = DATE_TIME.exec(v);
  if (!m || !isRealDate(m[1])) return undefined;
  const [h, min, s] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (h > 23 || min > 59 || s > 59) return undefined;
  const offset = (m[6] ?? "Z").toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
  const fraction = m[5] ? `.${m[5].slice(0, 3).padEnd(3, "0")}` : "";
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4] ?? "00"}${fraction}${offset}`);
  if (Number.isNaN(t)) return undefined;
  return { date: m[1], dateTime: new Date(t).toISOString().replace(/\.000Z$/, "Z") };
}
