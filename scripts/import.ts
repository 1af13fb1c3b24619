// npm run import -- google FILE | csv FILE [--map field=Column]... : review files in CONTENT_DIR from an export.
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readContent } from "../src/build/read-content.ts";
import { loadConfig } from "../src/config.ts";
import { ContentError } from "../src/domain/content-errors.ts";
import { CSV_FIELDS, type CsvField, DEFAULT_CSV_SOURCE, parseCsvExport } from "../src/domain/import/csv-export.ts";
import { GOOGLE_SOURCE, parseGoogleExport } from "../src/domain/import/google-export.ts";
import { MAX_IMPORT_BYTES, type ParsedExport } from "../src/domain/import/imported-review.ts";
import { planImport } from "../src/domain/import/plan-import.ts";
import { guardContactDetails } from "../src/domain/pii/guard-reviews.ts";
import { BusinessContent } from "../src/domain/schemas/content.ts";
import { indexReviews, writeFileAtomic } from "../src/import/review-files.ts";

const USAGE = `usage: npm run import -- google FILE [options]
       npm run import -- csv FILE [--map field=Column]... [--source NAME] [options]
options: --dry-run (print what would change, write nothing)
         --skip-invalid (write the valid reviews, report the rest)
         --verified (publish the new reviews; by default they stay verified: false)
csv fields: ${CSV_FIELDS.join(", ")}`;

class UsageError extends Error {}

function parseCommandLine(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      map: { type: "string", multiple: true },
      source: { type: "string" },
      "dry-run": { type: "boolean" },
      "skip-invalid": { type: "boolean" },
      verified: { type: "boolean" },
    },
  });
  const [format, file, ...extra] = positionals;
  if ((format !== "google" && format !== "csv") || !file || extra.length > 0) throw new UsageError("");
  if (format === "google" && (values.map || values.source)) throw new UsageError("--map and --source are for csv");
  const map: Partial<Record<CsvField, string>> = {};
  for (const m of values.map ?? []) {
    const eq = m.indexOf("=");
    const field = m.slice(0, eq).trim() as CsvField;
    if (eq < 1 || !CSV_FIELDS.includes(field) || !m.slice(eq + 1).trim()) {
      throw new UsageError(`--map ${m}: expected field=Column with a field from the list below`);
    }
    map[field] = m.slice(eq + 1).trim();
  }
  if (values.source !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(values.source)) {
    throw new UsageError(`--source ${values.source}: use lower-case letters, digits and dashes`);
  }
  return { ...values, format, file, map };
}

async function main(): Promise<number> {
  let args: ReturnType<typeof parseCommandLine>;
  try {
    args = parseCommandLine(process.argv.slice(2));
  } catch (e) {
    // parseArgs throws its own TypeError for an unknown option; both get the usage.
    console.error(e instanceof Error && e.message ? `${e.message}\n${USAGE}` : USAGE);
    return 2;
  }
  const config = loadConfig();
  const size = await stat(args.file).then(
    (s) => s.size,
    () => undefined,
  );
  if (size === undefined) {
    console.error(`${args.file}: no such file`);
    return 1;
  }
  if (size > MAX_IMPORT_BYTES) {
    console.error(`${args.file}: ${size} bytes, more than the ${MAX_IMPORT_BYTES} an import reads; split the export`);
    return 1;
  }
  let text: string;
  try {
    // Strict decoding: a Windows-1252 export read as UTF-8 would silently turn accents into U+FFFD.
    text = new TextDecoder("utf-8", { fatal: true }).decode(await readFile(args.file));
  } catch {
    console.error(`${args.file}: not UTF-8 text; export or save it as UTF-8 (in Excel: "CSV UTF-8")`);
    return 1;
  }
  const parsed: ParsedExport =
    args.format === "google" ? parseGoogleExport(text) : parseCsvExport(text, { map: args.map, source: args.source });

  const raw = await readContent(config.CONTENT_DIR);
  let businessJson: unknown;
  try {
    businessJson = JSON.parse(raw.business.text);
  } catch {
    businessJson = undefined;
  }
  const business = BusinessContent.safeParse(businessJson);
  if (!business.success) {
    console.error(`${join(config.CONTENT_DIR, "business.json")} is invalid; run npm run build to see why`);
    return 1;
  }
  const source = args.format === "google" ? GOOGLE_SOURCE : (args.source ?? DEFAULT_CSV_SOURCE);
  const plan = planImport(parsed.reviews, {
    business: business.data,
    existing: indexReviews(raw.reviews),
    folder: `reviews/${source}`,
    verified: args.verified === true,
    today: new Date().toISOString().slice(0, 10),
  });
  const problems = [...parsed.problems, ...plan.problems];
  for (const p of problems) console.error(`${args.file}: ${p.where}: ${p.field ? `${p.field}: ` : ""}${p.reason}`);
  const fileLevel = problems.some((p) => p.where === "file" || p.where === "line 1");
  if (problems.length > 0 && (fileLevel || !args["skip-invalid"])) {
    console.error(
      `${problems.length} problem${problems.length === 1 ? "" : "s"}; nothing was written.` +
        (fileLevel ? "" : " Fix them, or re-run with --skip-invalid to write the valid reviews."),
    );
    return 1;
  }
  const dry = args["dry-run"] === true;
  const count = { created: 0, updated: 0, unchanged: 0 };
  for (const c of plan.changes) {
    count[c.action]++;
    if (c.action === "unchanged") continue;
    const verb = dry ? `would ${c.action === "created" ? "create" : "update"}` : c.action;
    console.log(`${verb} ${c.file}${c.fields.length ? ` (${c.fields.join(", ")})` : ""}`);
    if (!dry) await writeFileAtomic(join(config.CONTENT_DIR, c.file), c.text);
  }
  const skipped = new Set(problems.map((p) => p.where)).size;
  console.log(
    `${dry ? "dry run, nothing written: " : ""}created ${count.created}, updated ${count.updated}, unchanged ${count.unchanged}, skipped ${skipped}`,
  );
  const written = plan.changes.filter((c) => c.action !== "unchanged");
  const withContacts = guardContactDetails(
    written.map((c) => ({ file: c.file, content: JSON.parse(c.text) })),
    business.data,
    "redact",
  ).findings;
  if (withContacts.length > 0) {
    console.log(
      `${withContacts.length} imported review${withContacts.length === 1 ? " holds" : "s hold"} a customer's email or phone number ` +
        `(${withContacts.map((f) => f.file).join(", ")}); the build redacts them unless PII_POLICY says otherwise.`,
    );
  }
  const unpublished = plan.changes.filter((c) => !c.verified).length;
  if (unpublished > 0) {
    console.log(
      `${unpublished} imported review${unpublished === 1 ? " is" : "s are"} unpublished ("verified": false). ` +
        `To publish one, read it and set "verified": true in its file (or import with --verified), then npm run build.`,
    );
  }
  return 0;
}

try {
  process.exitCode = await main();
} catch (e) {
  console.error(e instanceof ContentError ? e.message : `import failed: ${(e as Error).message}`);
  process.exitCode = 1;
}
