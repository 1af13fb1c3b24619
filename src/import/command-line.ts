// npm run import's command line: the format, the file and the options, checked before anything is read.
import { parseArgs } from "node:util";
import { CSV_FIELDS, type CsvField } from "../domain/import/csv-export.ts";
import { Id } from "../domain/schemas/common.ts";

export const USAGE = `usage: npm run import -- google FILE [options]
       npm run import -- csv FILE [--map field=Column]... [--source NAME] [options]
options: --dry-run (print what would change, write nothing)
         --skip-invalid (write the valid reviews, report the rest)
         --verified (publish the new reviews; by default they stay verified: false)
csv fields: ${CSV_FIELDS.join(", ")}`;

class UsageError extends Error {}

export type ImportArgs = ReturnType<typeof parseCommandLine>;

/** The import's arguments; throws (a UsageError, or parseArgs' own error) with a message for the user. */
export function parseCommandLine(argv: string[]) {
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
  if (values.source !== undefined && !Id.safeParse(values.source).success) {
    throw new UsageError(`--source ${values.source}: use lower-case letters, digits and dashes`);
  }
  return { ...values, format, file, map };
}
