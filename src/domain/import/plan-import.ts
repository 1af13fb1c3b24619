// Imported reviews + the review files already in CONTENT_DIR -> what to create, update or leave alone.
// An existing file keeps everything a person added (tags, `private`, `verified`); only the fields the export
// speaks for are replaced. Every resulting review is validated as the build would validate it.
import { isDeepStrictEqual } from "node:util";
import type * as z from "zod";
import { reviewDateProblems } from "../review-dates.ts";
import { type BusinessContent, ReviewContent } from "../schemas/content.ts";
import { catalogLookups, catalogProblems } from "../validate-content.ts";
import type { ImportedReview, RowProblem } from "./imported-review.ts";

export type ImportAction = "created" | "updated" | "unchanged";

export interface ImportChange {
  id: string;
  where: string;
  /** Path relative to CONTENT_DIR. */
  file: string;
  action: ImportAction;
  /** For an update: the fields whose value changed. */
  fields: string[];
  /** The file's new text (JSON, two-space indent, fields in schema order). */
  text: string;
  verified: boolean;
}

export interface ExistingReview {
  file: string;
  /** The parsed file, or undefined when it is not valid JSON. */
  json: unknown;
}

export interface PlanOptions {
  business: BusinessContent;
  existing: ReadonlyMap<string, ExistingReview>;
  /** Folder (relative to CONTENT_DIR) for new files. */
  folder: string;
  /** New reviews are published (`verified: true`) only when a person said so on the command line. */
  verified: boolean;
  /** The importer's UTC date, for the future-date rule. */
  today: string;
}

const FIELD_ORDER = Object.keys(ReviewContent.shape) as (keyof ReviewContent)[];

/** The JSON text of a review file, fields in schema order. */
export function serializeReview(content: Record<string, unknown>): string {
  const ordered: Record<string, unknown> = {};
  for (const k of FIELD_ORDER) if (content[k] !== undefined) ordered[k] = content[k];
  for (const k of Object.keys(content)) if (!(k in ordered) && content[k] !== undefined) ordered[k] = content[k];
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

function issues(where: string, error: z.ZodError): RowProblem[] {
  return error.issues.map((i) => ({ where, field: i.path.join("."), reason: i.message }));
}

export function planImport(imported: readonly ImportedReview[], options: PlanOptions) {
  const lookups = catalogLookups(options.business);
  const changes: ImportChange[] = [];
  const problems: RowProblem[] = [];
  for (const review of imported) {
    const old = options.existing.get(review.id);
    if (old && (typeof old.json !== "object" || old.json === null || Array.isArray(old.json))) {
      problems.push({
        where: review.where,
        field: "",
        reason: `${old.file} exists but is not a JSON object; fix it first`,
      });
      continue;
    }
    const before = (old?.json ?? {}) as Record<string, unknown>;
    let next: Record<string, unknown>;
    if (old) {
      next = { ...before };
      for (const f of review.owned) next[f] = review.content[f];
    } else {
      next = { ...review.content, verified: options.verified && review.content.verified !== false };
    }
    const parsed = ReviewContent.safeParse(next);
    if (!parsed.success) {
      problems.push(...issues(review.where, parsed.error));
      continue;
    }
    const rowProblems: RowProblem[] = reviewDateProblems(parsed.data, options.today).map((p) => ({
      where: review.where,
      ...p,
    }));
    rowProblems.push(...catalogProblems(parsed.data, lookups).map((p) => ({ where: review.where, ...p })));
    if (rowProblems.length > 0) {
      problems.push(...rowProblems);
      continue;
    }
    const fields = FIELD_ORDER.filter((f) => !isDeepStrictEqual(before[f], next[f]));
    changes.push({
      id: review.id,
      where: review.where,
      file: old?.file ?? `${options.folder}/${review.id}.json`,
      action: !old ? "created" : fields.length > 0 ? "updated" : "unchanged",
      fields: old ? fields : [],
      text: serializeReview(next),
      verified: parsed.data.verified,
    });
  }
  return { changes, problems };
}
