// Any CSV with a header row -> imported reviews. Columns are the content fields by default; `map` names
// another platform's or a spreadsheet's columns (field -> column). Parsing is csv-parse's (quotes, BOM, CRLF).
import { parse } from "csv-parse/sync";
import type { ReviewContent } from "../schemas/content.ts";
import {
  type ImportedField,
  type ImportedReview,
  type ParsedExport,
  parseDateOrDateTime,
  type RowProblem,
  stableId,
  usableAsId,
} from "./imported-review.ts";

export const CSV_FIELDS = [
  "id",
  "date",
  "rating",
  "title",
  "text",
  "author",
  "response",
  "response_date",
  "verified",
  "language",
  "technicians",
  "services",
  "service_areas",
  "updated",
] as const;
export type CsvField = (typeof CSV_FIELDS)[number];
const REQUIRED: readonly CsvField[] = ["date", "rating", "author"];
export const DEFAULT_CSV_SOURCE = "csv";
/** Separates several catalog references in one cell. */
export const LIST_SEPARATOR = ";";

export interface CsvOptions {
  map?: Partial<Record<CsvField, string>>;
  /** The `source` of every row, and the prefix of ids derived for rows without an id. */
  source?: string;
}

const BOOLEAN: Record<string, boolean> = {
  true: true,
  yes: true,
  y: true,
  "1": true,
  false: false,
  no: false,
  n: false,
  "0": false,
};
const OWNED_BY_COLUMN: Partial<Record<CsvField, ImportedField>> = {
  date: "date",
  rating: "rating",
  title: "title",
  text: "text",
  author: "author",
  language: "language",
  response: "response",
  updated: "updated",
};

/** Counts lines forward through the text: csv-parse reports the byte offset where a record ends, not its line. */
function lineCounter(text: string) {
  const buf = Buffer.from(text);
  let at = 0;
  let line = 1;
  /** The 1-based line on which the record after byte offset `from` starts (blank lines skipped). */
  return (from: number): number => {
    while (at < from || buf[at] === 0x0d || buf[at] === 0x0a) {
      if (at >= buf.length) break;
      if (buf[at] === 0x0a) line++;
      at++;
    }
    return line;
  };
}

export function parseCsvExport(text: string, options: CsvOptions = {}): ParsedExport {
  const source = options.source ?? DEFAULT_CSV_SOURCE;
  let records: { record: string[]; info: { bytes: number } }[];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as never;
  } catch (e) {
    return { reviews: [], problems: [{ where: "file", field: "", reason: (e as Error).message }] };
  }
  if (records.length === 0)
    return { reviews: [], problems: [{ where: "file", field: "", reason: "empty: no header row" }] };
  const header = records[0].record.map((h) => h.trim());
  const problems: RowProblem[] = [];
  const column = new Map<CsvField, number>();
  for (const field of CSV_FIELDS) {
    const name = options.map?.[field] ?? field;
    const index = header.findIndex((h) => h.toLowerCase() === name.toLowerCase());
    if (index !== -1) column.set(field, index);
    else if (options.map?.[field]) problems.push({ where: "line 1", field, reason: `no column named "${name}"` });
    else if (REQUIRED.includes(field)) {
      problems.push({ where: "line 1", field, reason: `no "${field}" column (name it, or use --map ${field}=Column)` });
    }
  }
  if (problems.length > 0) return { reviews: [], problems };

  const lineAt = lineCounter(text);
  const reviews: ImportedReview[] = [];
  const seen = new Map<string, string>();
  let repliesDatedByReview = 0;
  for (let r = 1; r < records.length; r++) {
    const { record } = records[r];
    const where = `line ${lineAt(records[r - 1].info.bytes)}`;
    const rowProblems: RowProblem[] = [];
    const fail = (field: string, reason: string) => rowProblems.push({ where, field, reason });
    if (record.length !== header.length) {
      fail("", `has ${record.length} fields, the header has ${header.length}`);
      problems.push(...rowProblems);
      continue;
    }
    const cell = (f: CsvField) => {
      const i = column.get(f);
      const v = i === undefined ? "" : record[i].replace(/\r\n?/g, "\n");
      return v.trim() === "" ? undefined : v;
    };
    const content: Partial<ReviewContent> = { source };
    const rating = cell("rating");
    if (rating !== undefined) {
      // A digit, as some exports write it ("5", "5.0"); Number() alone would also take "0x5" and "5e0".
      const written = rating.trim();
      if (/^[1-5](?:\.0+)?$/.test(written)) content.rating = Number(written);
      else fail("rating", `must be a whole number from 1 to 5 (got "${rating}")`);
    } else fail("rating", "missing");
    const dateCell = cell("date");
    const date = dateCell === undefined ? undefined : parseDateOrDateTime(dateCell);
    if (!dateCell) fail("date", "missing");
    else if (!date) fail("date", `must be a real date as YYYY-MM-DD or a date-time (got "${dateCell}")`);
    else {
      content.date = date.date;
      if (date.dateTime) content.updated = date.dateTime;
    }
    const updatedCell = cell("updated");
    if (updatedCell !== undefined) {
      const u = parseDateOrDateTime(updatedCell);
      if (u) content.updated = u.dateTime ?? `${u.date}T00:00:00Z`;
      else fail("updated", `must be a date-time (got "${updatedCell}")`);
    }
    const author = cell("author")?.trim();
    if (author) content.author = author;
    else fail("author", "missing");
    const title = cell("title")?.trim();
    if (title) content.title = title;
    content.text = cell("text")?.trim() ?? "";
    const language = cell("language")?.trim();
    if (language) content.language = language;
    const response = cell("response")?.trim();
    const responseDateCell = cell("response_date");
    if (response && responseDateCell === undefined) {
      // Exports often have the reply without its date (Trustpilot's "Reply Content"): the review's date stands in.
      if (content.date) {
        content.response = { text: response, date: content.date };
        repliesDatedByReview++;
      }
    } else if (response) {
      const d = parseDateOrDateTime(responseDateCell as string);
      if (!d) fail("response_date", `not a date (got "${responseDateCell}")`);
      else content.response = { text: response, date: d.date };
    }
    const verified = cell("verified");
    if (verified !== undefined) {
      const b = BOOLEAN[verified.trim().toLowerCase()];
      if (b === undefined) fail("verified", `must be true or false (got "${verified}")`);
      else content.verified = b;
    }
    for (const kind of ["technicians", "services", "service_areas"] as const) {
      const refs = cell(kind)
        ?.split(LIST_SEPARATOR)
        .map((s) => s.trim())
        .filter(Boolean);
      if (refs?.length) content[kind] = refs;
    }
    const sourceId = cell("id")?.trim();
    // Without an id the date and author stand for the review (the newline keeps stableId on its hash branch).
    const id = !sourceId
      ? stableId(source, `${dateCell}\n${author}`)
      : usableAsId(sourceId)
        ? sourceId
        : stableId(source, sourceId);
    const other = seen.get(id);
    if (other) fail("id", `same review as ${other}`);
    if (rowProblems.length > 0) {
      problems.push(...rowProblems);
      continue;
    }
    seen.set(id, where);
    const owned: ImportedField[] = ["source"];
    for (const [f, owns] of Object.entries(OWNED_BY_COLUMN)) if (column.has(f as CsvField)) owned.push(owns);
    if (content.updated && !owned.includes("updated")) owned.push("updated");
    reviews.push({ id, where, owned, content });
  }
  return { reviews, problems, repliesDatedByReview };
}
