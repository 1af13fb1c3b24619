// npm run import -- google FILE | csv FILE [--map field=Column]... : review files in CONTENT_DIR from an export.
import "../src/require-node-version.ts";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { readContent } from "../src/build/read-content.ts";
import { loadConfig } from "../src/config.ts";
import { ContentError } from "../src/domain/content-errors.ts";
import { formatAuthorName } from "../src/domain/import/author-name.ts";
import { DEFAULT_CSV_SOURCE, parseCsvExport } from "../src/domain/import/csv-export.ts";
import { GOOGLE_SOURCE, parseGoogleExport } from "../src/domain/import/google-export.ts";
import { MAX_IMPORT_BYTES, type ParsedExport } from "../src/domain/import/imported-review.ts";
import { planImport } from "../src/domain/import/plan-import.ts";
import { guardContactDetails } from "../src/domain/pii/guard-reviews.ts";
import { BusinessContent } from "../src/domain/schemas/content.ts";
import { type ImportArgs, parseCommandLine, USAGE } from "../src/import/command-line.ts";
import { indexReviews, writeFileAtomic } from "../src/import/review-files.ts";

/** Files written at once: each write waits for its flush to disk, so one at a time is slow. */
const WRITE_BATCH = 64;

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  let args: ImportArgs;
  try {
    args = parseCommandLine(argv);
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
  for (const r of parsed.reviews) {
    if (r.content.author) r.content.author = formatAuthorName(r.content.author, config.AUTHOR_NAME_POLICY);
  }

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
  }
  const changed = plan.changes.filter((c) => c.action !== "unchanged");
  for (let i = 0; !dry && i < changed.length; i += WRITE_BATCH) {
    const batch = changed.slice(i, i + WRITE_BATCH);
    await Promise.all(batch.map((c) => writeFileAtomic(join(config.CONTENT_DIR, c.file), c.text)));
  }
  const skipped = new Set(problems.map((p) => p.where)).size;
  const dated = parsed.repliesDatedByReview ?? 0;
  if (dated > 0) {
    console.log(
      `${dated} repl${dated === 1 ? "y has" : "ies have"} no date of ${dated === 1 ? "its" : "their"} own and ${dated === 1 ? "takes its review's date" : "take their review's date"} (map a date column with --map response_date=Column).`,
    );
  }
  console.log(
    `${dry ? "dry run, nothing written: " : ""}created ${count.created}, updated ${count.updated}, unchanged ${count.unchanged}, skipped ${skipped}`,
  );
  const withContacts = guardContactDetails(
    changed.map((c) => ({ file: c.file, content: JSON.parse(c.text) })),
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
