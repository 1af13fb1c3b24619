// The files in eval/ that npm run eval and the label-combiner experiment both read.
import { readFile } from "node:fs/promises";
import type { Catalog, CatalogEntry } from "../../src/vocabulary.ts";

const EVAL = new URL("../../eval/", import.meta.url);

/** A file of eval/ as text. */
export const readEvalFile = (name: string): Promise<string> => readFile(new URL(name, EVAL), "utf8");

/** The catalog entries of `value` (an array of {id, name, aliases?, postal_codes?}); throws naming file and field. */
function entriesOf(value: unknown, where: string): CatalogEntry[] {
  if (!Array.isArray(value)) throw new Error(`${where}: must be an array of catalog entries`);
  value.forEach((e: unknown, i) => {
    const entry = e as { id?: unknown; name?: unknown; aliases?: unknown; postal_codes?: unknown };
    const strings = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((s) => typeof s === "string"));
    if (typeof entry?.id !== "string" || typeof entry.name !== "string" || entry.name.trim() === "")
      throw new Error(`${where}[${i}]: needs a string id and a non-empty name`);
    if (!strings(entry.aliases) || !strings(entry.postal_codes))
      throw new Error(`${where}[${i}]: aliases and postal_codes must be arrays of strings`);
  });
  return value as CatalogEntry[];
}

/** The business of eval/business.json: the sample business's name and catalog. */
export async function loadSampleBusiness(): Promise<Catalog> {
  const business = JSON.parse(await readEvalFile("business.json")) as Record<string, unknown>;
  if (typeof business.name !== "string") throw new Error("eval/business.json: name: must be a string");
  return {
    name: business.name,
    services: entriesOf(business.services, "eval/business.json: services"),
    technicians: entriesOf(business.technicians, "eval/business.json: technicians"),
    service_areas: entriesOf(business.service_areas, "eval/business.json: service_areas"),
  };
}

/** The sample business with eval/extra-technicians.json's technicians added: the catalog the sets are scored with. */
export async function loadEvalBusiness(): Promise<Catalog> {
  const business = await loadSampleBusiness();
  const extra = JSON.parse(await readEvalFile("extra-technicians.json")) as Record<string, unknown>;
  const technicians = entriesOf(extra.technicians, "eval/extra-technicians.json: technicians");
  return { ...business, technicians: [...business.technicians, ...technicians] };
}

/**
 * The settings a cross-validation script runs: `--grid='[{...}, ...]'` in `argv`, each over `chosen`; without it,
 * `chosen` alone (npm run eval:model and npm run eval:aspects).
 */
export function gridOf<T extends object>(argv: readonly string[], chosen: T): T[] {
  const arg = argv.find((a) => a.startsWith("--grid="));
  return arg ? (JSON.parse(arg.slice("--grid=".length)) as Partial<T>[]).map((g) => ({ ...chosen, ...g })) : [chosen];
}
