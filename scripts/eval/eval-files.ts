// The files in eval/ that npm run eval and the label-combiner experiment both read.
import { readFile } from "node:fs/promises";
import { BusinessContent } from "../../src/domain/schemas/content.ts";

const EVAL = new URL("../../eval/", import.meta.url);

/** A file of eval/ as text. */
export const readEvalFile = (name: string): Promise<string> => readFile(new URL(name, EVAL), "utf8");

/** The sample business (content/business.json) with eval/extra-technicians.json's technicians added. */
export async function loadEvalBusiness(): Promise<BusinessContent> {
  const content = JSON.parse(await readFile(new URL("../../content/business.json", import.meta.url), "utf8"));
  const extra = JSON.parse(await readEvalFile("extra-technicians.json")) as { technicians: unknown[] };
  return BusinessContent.parse({ ...content, technicians: [...content.technicians, ...extra.technicians] });
}

/**
 * The settings a cross-validation script runs: `--grid='[{...}, ...]'` in `argv`, each over `chosen`; without it,
 * `chosen` alone (npm run eval:model and npm run eval:aspects).
 */
export function gridOf<T extends object>(argv: readonly string[], chosen: T): T[] {
  const arg = argv.find((a) => a.startsWith("--grid="));
  return arg ? (JSON.parse(arg.slice("--grid=".length)) as Partial<T>[]).map((g) => ({ ...chosen, ...g })) : [chosen];
}
