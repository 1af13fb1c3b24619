// Seeded synthetic content for the benchmarks: the sample business and the sample generator, at any size.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { sampleBusiness } from "../scripts/content-generator/business.ts";
import { generateReviews } from "../scripts/content-generator/generate.ts";

export async function generateContent(dir: string, count: number, seed = 7): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "business.json"), JSON.stringify(sampleBusiness));
  const files = generateReviews({ count, seed, from: "2016-01-01", to: "2026-11-15" });
  const dirs = new Set(files.map((f) => dirname(join(dir, f.path))));
  for (const d of dirs) await mkdir(d, { recursive: true });
  for (let i = 0; i < files.length; i += 500) {
    await Promise.all(files.slice(i, i + 500).map((f) => writeFile(join(dir, f.path), JSON.stringify(f.json))));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, count] = process.argv.slice(2);
  await generateContent(dir, Number(count));
}
