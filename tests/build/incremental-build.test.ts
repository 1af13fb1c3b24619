// The incremental build cache: a rebuild after one changed review analyses that review only, and its output is
// byte-identical to a clean build of the same content.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { STAT_MARGIN_MS } from "../../src/build/content-snapshot.ts";
import { MANIFEST_FILE } from "../../src/domain/schemas/manifest.ts";
import { changeOneReview, contentFixture, filesOf } from "../helpers/build.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";

const run = promisify(execFile);

async function build(content: string, cache: string): Promise<{ dist: string; timings: Record<string, number> }> {
  const dist = join(await tempDir("dist"), "dist");
  const { stdout } = await run(process.execPath, [join(ROOT, "scripts/build.ts"), "--timings"], {
    cwd: ROOT,
    env: {
      ...process.env,
      CONTENT_DIR: content,
      DIST_DIR: dist,
      BUILD_CACHE_DIR: cache,
      BASE_URL: "http://localhost:4321",
    },
  });
  return { dist, timings: JSON.parse(stdout.trim().split("\n").at(-1) as string).timings };
}

test("a rebuild after one changed review analyses it alone and equals a clean build byte for byte", async () => {
  const content = await contentFixture();
  const cache = await tempDir("cache");
  // Older than the content snapshot's margin, so that the rebuild trusts unchanged files from their stat alone: a
  // file's ctime (which no call sets back) must age, so this is a wait for time itself.
  await sleep(STAT_MARGIN_MS + 200);
  const first = await build(content, cache);
  assert.equal(first.timings.files_from_snapshot, 0);
  const total = first.timings.reviews_analysed;
  assert.ok(total > 100, `the sample has verified reviews (${total})`);
  assert.equal(first.timings.reviews_from_cache, 0);

  await changeOneReview(content);

  const cached = await build(content, cache);
  // Only the changed file was read: every other one came from the content snapshot.
  assert.equal(cached.timings.files_read, 1);
  assert.ok(cached.timings.files_from_snapshot > 100, `${cached.timings.files_from_snapshot} files from the snapshot`);
  assert.equal(cached.timings.reviews_analysed, 1);
  assert.equal(cached.timings.reviews_from_cache, total - 1);
  // Compressed variants: the files whose bytes did not change come from the cache, the changed ones
  // (reviews.json, the feeds, insights.json, the pages showing the review) are compressed again.
  assert.ok(cached.timings.compressed_from_cache > 0, "unchanged files' variants come from the cache");
  assert.ok(cached.timings.compressed > 0, "changed files are compressed again");
  const clean = await build(content, await tempDir("cache"));
  assert.equal(clean.timings.reviews_analysed, total);
  assert.equal(clean.timings.compressed_from_cache, 0);

  const a = await filesOf(cached.dist);
  const b = await filesOf(clean.dist);
  assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort());
  for (const [name, bytes] of a) assert.ok(bytes.equals(b.get(name) as Buffer), `${name} differs from a clean build`);
  // The compressed-variants cache keeps what the last build used and nothing else (the previous reviews.json's
  // variants were pruned): one br and one gzip per distinct compressed file.
  const manifest = JSON.parse((a.get(MANIFEST_FILE) as Buffer).toString("utf8")) as {
    files: Record<string, { sha256: string; encodings: { br?: unknown } }>;
  };
  const compressedFiles = new Set(Object.values(manifest.files).flatMap((f) => (f.encodings.br ? [f.sha256] : [])));
  const kept = (await readdir(join(cache, "compressed"), { recursive: true, withFileTypes: true })).filter((e) =>
    e.isFile(),
  );
  assert.deepEqual(new Set(kept.map((e) => e.name.replace(/\..*$/, ""))), compressedFiles);
  assert.equal(kept.length, 2 * compressedFiles.size);
  const firstFiles = await filesOf(first.dist);
  assert.ok(!firstFiles.get("reviews.json")?.equals(a.get("reviews.json") as Buffer), "the change is published");

  // The appended result is read back: nothing left to analyse.
  const again = await build(content, cache);
  assert.equal(again.timings.reviews_analysed, 0);
  assert.equal(again.timings.reviews_from_cache, total);
});
