// Turns the raw files of CONTENT_DIR into validated content, or one ContentError listing every problem.
import type * as z from "zod";
import { ContentError, type ContentProblem } from "./content-errors.ts";
import { didYouMean, issueInWords } from "./content-words.ts";
import { reviewDateProblems } from "./review-dates.ts";
import { BusinessContent, ReviewContent } from "./schemas/content.ts";

export interface RawFile {
  /** Path relative to CONTENT_DIR, with forward slashes. */
  path: string;
  text: string;
  /** Why the file's bytes are no text at all (decodeContentFile); reported as the file's problem. */
  unreadable?: string;
}

/** Strict UTF-8: a byte sequence that is not UTF-8 throws (rather than becoming U+FFFD); a leading BOM is dropped. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A content file's bytes as text. Bytes that are not UTF-8 (a file saved as Latin-1 or Windows-1252, say) are
 * refused by name: decoded leniently they would be published with U+FFFD in place of each accented letter. A UTF-8
 * byte order mark, which some editors write, is dropped.
 */
export function decodeContentFile(path: string, bytes: Uint8Array): RawFile {
  try {
    return { path, text: UTF8.decode(bytes) };
  } catch {
    return {
      path,
      text: "",
      unreadable: "not UTF-8 text: save the file as UTF-8 (Latin-1 and Windows-1252 are not read)",
    };
  }
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
const CATALOGS = Object.keys(SINGULAR) as (keyof typeof SINGULAR)[];

type CatalogEntry = { id: string; name: string; aliases?: string[] };
/** What a review's tag may name an entry by (its id, name and aliases), each with its field. */
const entryNames = (e: CatalogEntry): [field: string, name: string][] => [
  ["id", e.id],
  ["name", e.name],
  ...(e.aliases ?? []).map((a, k): [string, string] => [`aliases.${k}`, a]),
];
/** A tag or an entry's name as they are compared. */
const tagKey = (name: string) => name.normalize("NFKC").toLowerCase();
export const REVIEW_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

function parseJson(file: RawFile, problems: ContentProblem[]): unknown {
  if (file.unreadable !== undefined) {
    problems.push({ file: file.path, field: "", reason: file.unreadable });
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(file.text);
  } catch (e) {
    problems.push({ file: file.path, field: "", reason: `not valid JSON (${(e as Error).message})` });
    return undefined;
  }
  // Only an escape (\ud83d) can put half of a surrogate pair into UTF-8 text: look for one before walking.
  const field = LONE_SURROGATE_ESCAPE.test(file.text) ? illFormedField(value) : undefined;
  if (field === undefined) return value;
  problems.push({
    file: file.path,
    field,
    reason:
      "holds half of a UTF-16 surrogate pair (an escape such as \\ud83d without its partner): write the character itself, or both halves",
  });
  return undefined;
}

const LONE_SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * The path of the first string (or key) in `value` that is not well-formed UTF-16, or undefined. No recursion: a
 * file may nest deeper than the stack.
 */
function illFormedField(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, ""]];
  const join = (path: string, key: string | number) => (path === "" ? String(key) : `${path}.${key}`);
  while (stack.length > 0) {
    const [v, path] = stack.pop() as [unknown, string];
    if (typeof v === "string") {
      if (!v.isWellFormed()) return path || "(the whole file)";
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], join(path, i)]);
    } else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (!k.isWellFormed()) return join(path, k);
        stack.push([x, join(path, k)]);
      }
    }
  }
  return undefined;
}

/**
 * Two entries of one catalog of business.json with the same id, or a name or alias (compared as reviews' tags are)
 * that would name two of them: a review's tag could only be credited to one, silently.
 */
function catalogClashes(business: BusinessContent, file: string): ContentProblem[] {
  const problems: ContentProblem[] = [];
  for (const kind of CATALOGS) {
    const owner = new Map<string, number>(); // tagKey of an id, name or alias -> entry
    for (const [i, e] of business[kind].entries()) {
      for (const [field, key] of entryNames(e)) {
        const norm = tagKey(key);
        const other = owner.get(norm);
        if (other === undefined) owner.set(norm, i);
        else if (other !== i) {
          problems.push({
            file,
            field: `${kind}.${i}.${field}`,
            reason: `"${key}" also names ${kind}.${other} (id ${business[kind][other].id}): a review's tag could mean either`,
          });
          break; // one problem per entry
        }
      }
    }
  }
  return problems;
}

/** One problem per field (a malformed date fails its pattern and its calendar check: it is said once). */
function zodProblems(file: string, error: z.ZodError, review: boolean): ContentProblem[] {
  const byField = new Map<string, ContentProblem>();
  for (const issue of error.issues) {
    const { field, reason } = issueInWords(issue, review);
    if (!byField.has(field)) byField.set(field, { file, field, reason });
  }
  return [...byField.values()];
}

/** Resolves a catalog reference (id, name or alias, any case) to an id. */
export function catalogLookup(entries: readonly CatalogEntry[]) {
  const map = new Map<string, string>();
  for (const e of entries) for (const [, key] of entryNames(e)) map.set(tagKey(key), e.id);
  return (ref: string) => map.get(tagKey(ref));
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

/** A review's tags that name nothing in business.json; with the catalog, each says which entry it may have meant. */
export function catalogProblems(
  review: Pick<ReviewContent, keyof CatalogLookups>,
  lookups: CatalogLookups,
  catalog?: Pick<BusinessContent, keyof CatalogLookups>,
): { field: string; reason: string }[] {
  const problems: { field: string; reason: string }[] = [];
  for (const kind of CATALOGS) {
    const refs = review[kind];
    if (!Array.isArray(refs)) continue;
    for (const [i, ref] of refs.entries()) {
      if (typeof ref === "string" && ref && !lookups[kind](ref)) {
        const hint = catalog ? didYouMean(ref, catalog[kind]) : "";
        problems.push({
          field: `${kind}.${i}`,
          reason: `unknown ${SINGULAR[kind]} "${ref}" (not in business.json)${hint}`,
        });
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
  const business =
    businessJson === undefined ? undefined : BusinessContent.safeParse(businessJson, { reportInput: true });
  if (business && !business.success) problems.push(...zodProblems(businessFile.path, business.error, false));
  if (business?.success) problems.push(...catalogClashes(business.data, businessFile.path));
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
      parsed = ReviewContent.safeParse(json, { reportInput: true });
      if (!parsed.success) {
        problems.push(...zodProblems(file.path, parsed.error, true));
        // Every problem of a file in one run: its catalog references too, though another field is wrong.
        if (lookups && json !== null && typeof json === "object") {
          const wrong = new Set(parsed.error.issues.map((i) => i.path.join(".")));
          const tags = json as Pick<ReviewContent, keyof CatalogLookups>;
          for (const p of catalogProblems(tags, lookups, business?.data))
            if (!wrong.has(p.field)) problems.push({ file: file.path, ...p });
        }
        continue;
      }
    }
    const dateProblems = options.today ? reviewDateProblems(parsed.data, options.today) : [];
    problems.push(...dateProblems.map((p) => ({ file: file.path, ...p })));
    if (lookups)
      problems.push(...catalogProblems(parsed.data, lookups, business?.data).map((p) => ({ file: file.path, ...p })));
    reviews.push({ id, file: file.path, content: parsed.data });
  }
  if (problems.length > 0 || !business?.success) throw new ContentError(problems);
  return { business: business.data, reviews };
}
