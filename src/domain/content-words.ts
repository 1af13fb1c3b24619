// Content problems in the project's own words: what a field must hold, said the same way for a missing field, a
// value of the wrong type or one out of range, and "did you mean" for a catalog reference that names nothing.
import type * as z from "zod";
import { closestEntries, type NamedEntry } from "./closest-names.ts";

/** What each review field must hold, as a person writing the file would put it. */
const REVIEW_FIELDS: Record<string, string> = {
  rating: "a whole number from 1 to 5",
  date: "a date written YYYY-MM-DD, such as 2025-06-01",
  updated: "a date and time with its offset, such as 2025-06-01T14:02:11Z",
  title: "text",
  text: "the review's words as text (it may be empty)",
  author: "the reviewer's name as text",
  verified: "true or false (without quotes)",
  source: "a name such as google or website",
  language: "a language tag such as en or en-US",
  response: 'an object with "text" and "date"',
  "response.text": "the reply's words as text",
  "response.date": "a date written YYYY-MM-DD, such as 2025-06-01",
  technicians: 'a list of technician ids or names, such as ["grant-holloway"]',
  services: 'a list of service ids or names, such as ["ac-repair"]',
  service_areas: 'a list of service area ids or names, such as ["boise"]',
  private: "an object (anything in it stays private)",
};

function describe(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  if (typeof input === "string") return JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input);
  if (typeof input === "object") return "an object";
  return String(input);
}

/** The field a problem belongs to and its reason, for one schema issue of a review file (`review`) or another. */
export function issueInWords(issue: z.core.$ZodIssue, review: boolean): { field: string; reason: string } {
  const field = issue.path.join(".");
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys;
    const hint = review
      ? `; the fields a review may have: ${Object.keys(REVIEW_FIELDS)
          .filter((f) => !f.includes("."))
          .join(", ")}`
      : "";
    return {
      field: field || keys.join(", "),
      reason: `unknown field${keys.length > 1 ? "s" : ""} ${keys.join(", ")}${hint}`,
    };
  }
  // An item of a list (technicians.0) is described by its list's expectation.
  const expects = review ? (REVIEW_FIELDS[field] ?? REVIEW_FIELDS[field.replace(/\.\d+$/, "")]) : undefined;
  const input = "input" in issue ? issue.input : undefined;
  if (issue.code === "invalid_type" && input === undefined)
    return { field, reason: expects ? `is missing: it must be ${expects}` : `is missing (${issue.message})` };
  if (!expects) return { field, reason: issue.message };
  if (issue.code === "custom") return { field, reason: `${issue.message}: it must be ${expects}` };
  return { field, reason: `must be ${expects}, not ${describe(input)}` };
}

/** "; did you mean grant-holloway (Grant Holloway)?" or nothing: the entries nearest to a reference that names none. */
export function didYouMean(ref: string, entries: readonly NamedEntry[]): string {
  const close = closestEntries(entries, ref);
  if (!close.length) return "";
  return `; did you mean ${close.map((e) => `${e.id} (${e.name})`).join(" or ")}?`;
}
