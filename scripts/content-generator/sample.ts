// The sample content folder: the committed content/ is exactly what this writes with the defaults, so tests build
// a fresh copy of it in their own folders instead of reading the working copy's content/.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { sampleBusiness } from "./business.ts";
import { generateReviews } from "./generate.ts";

export const SAMPLE_COUNT = 340;
export const SAMPLE_SEED = 20261122;

/** Writes business.json and the reviews into `dir` (its reviews/ replaced); returns how many reviews. */
export async function writeSampleContent(dir: string, count = SAMPLE_COUNT, seed = SAMPLE_SEED): Promise<number> {
  await rm(join(dir, "reviews"), { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "business.json"), `${JSON.stringify(sampleBusiness, null, 2)}\n`);
  const files = generateReviews({ count, seed, from: "2022-09-01", to: "2026-11-15" });
  for (const f of files) {
    await mkdir(dirname(join(dir, f.path)), { recursive: true });
    await writeFile(join(dir, f.path), `${JSON.stringify(f.json, null, 2)}\n`);
  }
  return files.length;
}
