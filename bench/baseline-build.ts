// Baseline for the build benchmark: read the same content files and write the same JSON outputs
// (reviews.json, feed.json) with plain JSON.stringify; no validation, analysis, Astro or compression.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const [contentDir, outDir] = process.argv.slice(2);
const started = performance.now();
const business = JSON.parse(await readFile(join(contentDir, "business.json"), "utf8"));
const entries = await readdir(join(contentDir, "reviews"), { recursive: true, withFileTypes: true });
const files = entries.filter((e) => e.isFile() && e.name.endsWith(".json")).map((e) => join(e.parentPath, e.name));
const reviews: Record<string, unknown>[] = [];
for (let i = 0; i < files.length; i += 256) {
  const batch = await Promise.all(
    files.slice(i, i + 256).map(async (f) => ({ f, r: JSON.parse(await readFile(f, "utf8")) })),
  );
  for (const { f, r } of batch)
    if (r.verified) reviews.push({ id: f.replace(/^.*\//, "").replace(/\.json$/, ""), ...r, private: undefined });
}
reviews.sort((a, b) => (String(b.date) < String(a.date) ? -1 : 1));
await mkdir(join(outDir, "api"), { recursive: true });
await writeFile(join(outDir, "reviews.json"), JSON.stringify({ business, reviews }));
await writeFile(
  join(outDir, "api/feed.json"),
  JSON.stringify({ version: "https://jsonfeed.org/version/1.1", items: reviews.slice(0, 50) }),
);
console.log(JSON.stringify({ total: Math.round(performance.now() - started) }));
