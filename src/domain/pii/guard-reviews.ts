// Applies PII_POLICY to the reviews about to be published: redacts, refuses, or lets them through.
import { ContentError } from "../content-errors.ts";
import type { BusinessContent, ReviewContent } from "../schemas/content.ts";
import { createContactFinder, redactText } from "./contact-details.ts";
import type { ContactKind, PiiPolicy } from "./policy.ts";

/** What was found in one review file: field -> kinds of contact details. */
export interface ContactFinding {
  file: string;
  fields: { field: string; kinds: ContactKind[] }[];
}

export interface GuardedReview {
  file: string;
  content: ReviewContent;
}

/** The published fields of a review that hold a customer's words. */
const TEXT_FIELDS = ["title", "text", "author", "response.text"] as const;
type TextField = (typeof TEXT_FIELDS)[number];

function read(c: ReviewContent, field: TextField): string | undefined {
  return field === "response.text" ? c.response?.text : c[field];
}

function write(c: ReviewContent, field: TextField, value: string): ReviewContent {
  return field === "response.text" && c.response
    ? { ...c, response: { ...c.response, text: value } }
    : { ...c, [field]: value };
}

/**
 * The reviews with customers' contact details replaced, and which files had any.
 * `fail` throws a ContentError naming each file and field; `off` returns the reviews untouched.
 * `knownClean`: a review an earlier run found free of contact details, with the same text, business, policy and
 * code (the build's content snapshot); it is not searched again.
 */
export function guardContactDetails<R extends GuardedReview>(
  reviews: readonly R[],
  business: Pick<BusinessContent, "address" | "telephone" | "email">,
  policy: PiiPolicy,
  knownClean: (review: R) => boolean = () => false,
): { reviews: R[]; findings: ContactFinding[] } {
  if (policy === "off") return { reviews: [...reviews], findings: [] };
  const find = createContactFinder({ country: business.address.country, ...business });
  const findings: ContactFinding[] = [];
  const guarded = reviews.map((r) => {
    if (knownClean(r)) return r;
    let content = r.content;
    const fields: ContactFinding["fields"] = [];
    for (const field of TEXT_FIELDS) {
      const value = read(content, field);
      if (!value) continue;
      const matches = find(value);
      if (matches.length === 0) continue;
      fields.push({ field, kinds: [...new Set(matches.map((m) => m.kind))] });
      content = write(content, field, redactText(value, matches));
    }
    if (fields.length === 0) return r;
    findings.push({ file: r.file, fields });
    return { ...r, content };
  });
  if (policy === "fail" && findings.length > 0) {
    throw new ContentError(
      findings.flatMap((f) =>
        f.fields.map((x) => ({
          file: f.file,
          field: x.field,
          reason: `contains a customer's ${x.kinds.join(" and ")} (PII_POLICY=fail; remove it, or use PII_POLICY=redact)`,
        })),
      ),
    );
  }
  return { reviews: guarded, findings };
}

/** Files named in the build's output; a build over many keeps the counts and names the first ones. */
export const LISTED_FILES = 20;

/** A summary (files and fields per kind of detail), then one line per file up to LISTED_FILES, for the build's output. */
export function describeFindings(findings: readonly ContactFinding[]): string[] {
  if (findings.length === 0) return [];
  const n = findings.length;
  const kinds = new Map<string, number>();
  for (const f of findings) for (const x of f.fields) for (const k of x.kinds) kinds.set(k, (kinds.get(k) ?? 0) + 1);
  const counts = [...kinds].map(([k, c]) => `${c} ${k}`).join(", ");
  const listed = findings.slice(0, LISTED_FILES);
  return [
    `contact details redacted in ${n} review file${n === 1 ? "" : "s"} (PII_POLICY=redact; fields: ${counts}):`,
    ...listed.map((f) => `  ${f.file}: ${f.fields.map((x) => `${x.field} (${x.kinds.join(", ")})`).join(", ")}`),
    ...(n > listed.length ? [`  … and ${n - listed.length} more`] : []),
  ];
}
