// Writes the sample content folder: node scripts/generate-content.ts [dir] [count] [seed]
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { sampleBusiness } from "./content-generator/business.ts";
import { generateReviews } from "./content-generator/generate.ts";

const [dir = "content", count = "340", seed = "20261122"] = process.argv.slice(2);
await rm(join(dir, "reviews"), { recursive: true, force: true });
await mkdir(dir, { recursive: true });
await writeFile(join(dir, "business.json"), `${JSON.stringify(sampleBusiness, null, 2)}\n`);
const files = generateReviews({ count: Number(count), seed: Number(seed), from: "2022-09-01", to: "2026-11-15" });
for (const f of files) {
  await mkdir(dirname(join(dir, f.path)), { recursive: true });
  await writeFile(join(dir, f.path), `${JSON.stringify(f.json, null, 2)}\n`);
}
console.log(`wrote ${files.length} reviews and business.json to ${dir}`);
