// Two builds of different content folders running at the same time on one BUILD_CACHE_DIR (a publish beside the
// server's own rebuild, or two sites on one machine): every build's output equals a clean build of its content,
// while both write the content snapshot, the analysis cache and the compressed variants, and what the first pair
// left in the cache (written at the same time) is read back by the second pair.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { changeOneReview, contentFixture, filesOf, runBuild } from "../helpers/build.ts";
import { tempDir } from "../helpers/paths.ts";

async function build(content: string, cache: string): Promise<string> {
  const dist = join(await tempDir("dist"), "dist");
  const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist, BUILD_CACHE_DIR: cache });
  assert.equal(run.code, 0, `build of ${content} failed:\n${run.stderr}`);
  return dist;
}

async function assertSameFiles(got: string, want: string, what: string) {
  const a = await filesOf(got);
  const b = await filesOf(want);
  assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort(), `${what}: the same files`);
  for (const [name, bytes] of a)
    assert.ok(bytes.equals(b.get(name) as Buffer), `${what}: ${name} differs from a clean build`);
}

test("concurrent builds of two content folders on one cache each equal a clean build, also when built from what the other left in the cache", async () => {
  const a = await contentFixture();
  const b = await contentFixture({
    "reviews/2025/2025-06-01-new-reviewer.json": {
      rating: 2,
      author: "Pat N.",
      date: "2025-06-01",
      text: "The technician left sawdust all over the hallway and the repair failed a week later.",
      verified: true,
    },
  });
  const shared = await tempDir("shared-cache");

  // Both start on an empty cache: each writes the whole snapshot and analysis cache.
  await Promise.all([build(a, shared), build(b, shared)]);

  // One change in each: the next builds append to the line files at the same time.
  await changeOneReview(a);
  await writeFile(
    join(b, "reviews/2025/2025-06-02-second-reviewer.json"),
    JSON.stringify({
      rating: 5,
      author: "Lee S.",
      date: "2025-06-02",
      text: "On time, tidy and the price matched the quote.",
      verified: true,
    }),
  );
  const [a2, b2] = await Promise.all([build(a, shared), build(b, shared)]);
  const [cleanA, cleanB] = [await build(a, await tempDir("cache")), await build(b, await tempDir("cache"))];
  await assertSameFiles(a2, cleanA, "first folder, concurrent build");
  await assertSameFiles(b2, cleanB, "second folder, concurrent build");
});
