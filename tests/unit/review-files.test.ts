// The importer's atomic write: the target appears whole or not at all, and no temporary file is left behind.
import assert from "node:assert/strict";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { indexReviews, writeFileAtomic } from "../../src/import/review-files.ts";
import { tempDir } from "../helpers/paths.ts";

test("writes through a temporary file: new folders made, old content replaced, nothing left over", async () => {
  const dir = await tempDir("atomic");
  try {
    const target = join(dir, "reviews/google/a.json");
    await writeFileAtomic(target, "one\n");
    await writeFileAtomic(target, "two\n");
    assert.equal(await readFile(target, "utf8"), "two\n");
    assert.deepEqual(await readdir(join(dir, "reviews/google")), ["a.json"]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a write that cannot land leaves the target as it was and removes its temporary file", async () => {
  const dir = await tempDir("atomic");
  try {
    const target = join(dir, "taken.json");
    await mkdir(join(target, "inside"), { recursive: true }); // a folder in the way: rename fails
    await assert.rejects(writeFileAtomic(target, "text"));
    assert.deepEqual(await readdir(dir), ["taken.json"]);
    assert.deepEqual(await readdir(target), ["inside"]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("existing reviews are indexed by file name; a file that is not JSON is kept as unreadable", () => {
  const index = indexReviews([
    { path: "reviews/2024/a.json", text: '{"rating": 5}' },
    { path: "reviews/b.json", text: "{oops" },
  ]);
  assert.deepEqual(index.get("a"), { file: "reviews/2024/a.json", json: { rating: 5 } });
  assert.deepEqual(index.get("b"), { file: "reviews/b.json", json: undefined });
});
