// Rebuild after one changed review, with the incremental cache warm from a full build of the same content:
// one review file gets a new sentence, the build runs, the file is put back.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface RebuildResult {
  totalMs: number;
  analysed: number;
  fromCache: number;
  timings: Record<string, number>;
  /** "data-only" (the kept Astro bundle reused) or "full". */
  path: string;
}

/** `build` runs `scripts/build.ts --timings` with the given content, dist and cache folders. */
export async function incrementalBench(
  content: string,
  build: () => { timings: Record<string, number>; path: string },
): Promise<RebuildResult> {
  const files = (await readdir(join(content, "reviews"), { recursive: true }))
    .filter((f) => f.endsWith(".json"))
    .sort();
  const path = join(content, "reviews", files[Math.floor(files.length / 2)]);
  const original = await readFile(path, "utf8");
  const review = JSON.parse(original);
  review.text = `Changed for the incremental benchmark. ${review.text}`;
  review.verified = true;
  await writeFile(path, JSON.stringify(review));
  try {
    const { timings, path } = build();
    return {
      path,
      totalMs: timings.total,
      analysed: timings.reviews_analysed,
      fromCache: timings.reviews_from_cache,
      timings,
    };
  } finally {
    await writeFile(path, original);
  }
}
