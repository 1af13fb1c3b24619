// Turns the raw files of CONTENT_DIR into validated content, or one ContentError listing every problem.
import type * as z from "zod";
import { ContentError, type ContentProblem } from "./content-errors.ts";
import { reviewDateProblems } from "./review-dates.ts";
import { BusinessContent, ReviewContent } from "./schemas/content.ts";

export interface RawFile {
  /** Path relative to CONTENT_DIR, with forward slashes. */
  path: string;
  text: string;
}

/**
 * A review file whose text an earlier build already parsed and checked against the review schema, with the same
 * code (the build's content snapshot, src/build/content-snapshot.ts): its content is taken as the schema made it.
 */
export interface KnownReviewFile {
  path: string;
  content: ReviewContent;
}

export type ReviewFile = RawFile | KnownReviewFile;

export interface ValidContent {
  business: BusinessContent;
  reviews: { id: string; file: string; content: ReviewContent }[];
}

const SINGULAR = { technicians: "technician", services: "service", service_areas: "service area" } as const;
export const REVIEW_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

function parseJson(file: RawFile, problems: ContentProblem[]): unknown {
  try {
    return JSON.parse(file.text);
  } catch (e) {
    problems.push({ file: file.path, field: "", reason: `not valid JSON (${(e as Error).message})` });
    return undefined;
  }
}

function zodProblems(file: string, error: z.ZodError): ContentProblem[] {
  return error.issues.map((i) => ({
    file,
    field: i.path.join(".") || ("keys" in i ? i.keys.join(", ") : ""),
    reason:
      i.code === "unrecognized_keys" ? `unknown field${i.keys.length > 1 ? "s" : ""} ${i.keys.join(", ")}` : i.message,
  }));
}

/** Resolves a catalog reference (id, name or alias, any case) to an id. */
export function catalogLookup(entries: readonly { id: string; name: string; aliases?: string[] }[]) {
  const map = new Map<string, string>();
  for (const e of entries) {
    for (const key of [e.id, e.name, ...(e.aliases ?? [])]) map.set(key.normalize("NFKC").toLowerCase(), e.id);
  }
  return (ref: string) => map.get(ref.normalize("NFKC").toLowerCase());
}

export interface ValidateOptions {
  /** The build's UTC date (`YYYY-MM-DD`): reviews dated after it (beyond a day's tolerance) are refused. */
  today?: string;
}

export type CatalogLookups = ReturnType<typeof catalogLookups>;

/** One lookup per kind of catalog entry. */
export function catalogLookups(business: Pick<BusinessContent, "technicians" | "services" | "service_areas">) {
  return {
    technicians: catalogLookup(business.technicians),
    services: catalogLookup(business.services),
    service_areas: catalogLookup(business.service_areas),
  };
}

/** A review's tags that name nothing in business.json. */
export function catalogProblems(
  review: Pick<ReviewContent, keyof CatalogLookups>,
  lookups: CatalogLookups,
): { field: string; reason: string }[] {
  const problems: { field: string; reason: string }[] = [];
  for (const kind of ["technicians", "services", "service_areas"] as const) {
    for (const [i, ref] of (review[kind] ?? []).entries()) {
      if (!lookups[kind](ref)) {
        problems.push({ field: `${kind}.${i}`, reason: `unknown ${SINGULAR[kind]} "${ref}" (not in business.json)` });
      }
    }
  }
  return problems;
}

export function validateContent(
  businessFile: RawFile,
  reviewFiles: readonly ReviewFile[],
  options: ValidateOptions = {},
): ValidContent {
  const problems: ContentProblem[] = [];
  const businessJson = parseJson(businessFile, problems);
  const business = businessJson === undefined ? undefined : BusinessContent.safeParse(businessJson);
  if (business && !business.success) problems.push(...zodProblems(businessFile.path, business.error));
  const lookups = business?.success ? catalogLookups(business.data) : undefined;

  const reviews: ValidContent["reviews"] = [];
  const seen = new Map<string, string>();
  for (const file of [...reviewFiles].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const id = file.path.replace(/^.*\//, "").replace(/\.json$/, "");
    if (!REVIEW_ID.test(id)) {
      problems.push({ file: file.path, field: "", reason: `file name must match ${REVIEW_ID.source} plus .json` });
      continue;
    }
    const other = seen.get(id);
    if (other) {
      problems.push({ file: file.path, field: "", reason: `review id ${id} is also used by ${other}` });
      continue;
    }
    seen.set(id, file.path);
    let parsed: z.ZodSafeParseResult<ReviewContent>;
    if ("content" in file) parsed = { success: true, data: file.content };
    else {
      const json = parseJson(file, problems);
      if (json === undefined) continue;
      parsed = ReviewContent.safeParse(json);
    }
    if (!parsed.success) {
      problems.push(...zodProblems(file.path, parsed.error));
      continue;
    }
    const dateProblems = options.today ? reviewDateProblems(parsed.data, options.today) : [];
    problems.push(...dateProblems.map((p) => ({ file: file.path, ...p })));
    if (lookups) problems.push(...catalogProblems(parsed.data, lookups).map((p) => ({ file: file.path, ...p })));
    reviews.push({ id, file: file.path, content: parsed.data });
  }
  if (problems.length > 0 || !business?.success) throw new ContentError(problems);
  return { business: business.data, reviews };
}
