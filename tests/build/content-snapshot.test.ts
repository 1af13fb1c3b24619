// The content snapshot (src/build/content-snapshot.ts): an unchanged review file is trusted from its stat, a changed
// one is always read again (same size, mtime set back, or changed in the snapshot's own second), and a snapshot
// from other code or a damaged one is never used.
import assert from "node:assert/strict";
import { appendFile, mkdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { readReviewFiles, reviewKey, STAT_MARGIN_MS, statFiles } from "../../src/build/content-snapshot.ts";
import { tempDir } from "../helpers/paths.ts";

const review = (text: string) => ({
  rating: 5,
  author: "Ann",
  date: "2025-01-02",
  text,
  verified: true,
});

const MTIME = 1_700_000_000;

/**
 * The snapshot trusts a file from its stat once its mtime and its ctime are older than the margin. The mtime is set
 * back below, but no call sets a ctime back: here time passing is the thing under test, so these tests wait it out.
 */
const ageBeyondMargin = () => sleep(STAT_MARGIN_MS + 200);
const PATHS = ["reviews/a1.json", "reviews/b2.json", "reviews/c3.json"];

async function fixture(): Promise<{ content: string; cache: string }> {
  const content = await tempDir("snapshot-content");
  const cache = await tempDir("snapshot-cache");
  await mkdir(join(content, "reviews"));
  for (const [i, p] of PATHS.entries()) {
    await writeFile(join(content, p), JSON.stringify(review(`Text ${i}.`)));
    await utimes(join(content, p), MTIME, MTIME); // whole seconds, so that a test can set it back exactly
  }
  return { content, cache };
}

/** Reads the files as the build does and saves every one as valid (with the parsed JSON as its content). */
async function readAndSave(content: string, cache: string) {
  const read = await readReviewFiles(content, PATHS, cache);
  const valid = new Map(read.files.map((f) => [f.path, "content" in f ? f.content : JSON.parse(f.text)]));
  await read.save(valid);
  return read;
}

test("unchanged files are trusted from their stat once they are older than the margin; their content and key are kept", async () => {
  const { content, cache } = await fixture();
  await ageBeyondMargin();
  const first = await readAndSave(content, cache);
  assert.equal(first.statOnly, 0);
  assert.ok(first.files.every((f) => "text" in f));
  const second = await readReviewFiles(content, PATHS, cache);
  assert.equal(second.statOnly, PATHS.length);
  assert.equal(second.read, 0);
  assert.deepEqual(
    second.files.map((f) => ("content" in f ? f.content : undefined)),
    PATHS.map((_, i) => review(`Text ${i}.`)),
  );
  const text = await readFile(join(content, PATHS[0]), "utf8");
  assert.equal(second.keys.get(PATHS[0]), reviewKey("a1", text));
  assert.deepEqual(second.warnings, []);
});

test("a file changed with the same size and its mtime set back is read again", async () => {
  const { content, cache } = await fixture();
  await ageBeyondMargin();
  await readAndSave(content, cache);
  const path = join(content, PATHS[1]);
  const before = await stat(path);
  const changed = JSON.stringify(review("Text X."));
  assert.equal(changed.length, before.size);
  await writeFile(path, changed);
  await utimes(path, MTIME, MTIME);
  assert.equal((await stat(path)).mtimeMs, before.mtimeMs);
  const again = await readReviewFiles(content, PATHS, cache);
  assert.equal(again.statOnly, PATHS.length - 1);
  const file = again.files[1];
  assert.ok("text" in file && file.text === changed, "the changed file is given as text, to be validated");
  assert.equal(again.keys.get(PATHS[1]), reviewKey("b2", changed));
});

test("files changed within the margin of the snapshot are read and hashed, and reuse the content when unchanged", async () => {
  const { content, cache } = await fixture();
  await readAndSave(content, cache); // the files were written just now
  const again = await readReviewFiles(content, PATHS, cache);
  assert.equal(again.statOnly, 0, "recent files are never trusted from their stat");
  assert.ok(
    again.files.every((f) => "content" in f),
    "same key: the schema's result is reused",
  );
  // Changed in the same second, same size: the hash tells.
  const changed = JSON.stringify(review("Text Y."));
  await writeFile(join(content, PATHS[2]), changed);
  const third = await readReviewFiles(content, PATHS, cache);
  const file = third.files[2];
  assert.ok("text" in file && file.text === changed);
});

test("a snapshot made by other code is not used; a damaged one is ignored with a warning, never a crash", async () => {
  const { content, cache } = await fixture();
  await ageBeyondMargin();
  await readAndSave(content, cache);
  const file = join(cache, "content-snapshot.ndjson");
  const text = await readFile(file, "utf8");

  // Another fingerprint (a version bump, other validation code): every file is read, silently.
  await writeFile(file, text.replace(/"fingerprint":"[0-9a-f]+"/, `"fingerprint":"${"0".repeat(64)}"`));
  const other = await readReviewFiles(content, PATHS, cache);
  assert.equal(other.statOnly, 0);
  assert.ok(other.files.every((f) => "text" in f));
  assert.deepEqual(other.warnings, []);

  // Truncated in its first line, or not JSON at all: a warning, and every file read.
  for (const damaged of [text.slice(0, 20), "\u0000\u0001garbage\n[1,2"]) {
    await writeFile(file, damaged);
    const read = await readReviewFiles(content, PATHS, cache);
    assert.equal(read.statOnly, 0);
    assert.ok(read.files.every((f) => "text" in f));
    assert.equal(read.warnings.length, 1);
    assert.match(read.warnings[0], /unreadable/);
    // Saving writes it whole again.
    await read.save(new Map(read.files.map((f) => [f.path, JSON.parse("text" in f ? f.text : "")])));
    assert.equal((await readReviewFiles(content, PATHS, cache)).warnings.length, 0);
  }

  // A line cut short (an interrupted append) costs that file a read, not the others.
  await writeFile(file, text);
  await appendFile(file, '["reviews/a1.json",1,2');
  const cut = await readReviewFiles(content, PATHS, cache);
  assert.equal(cut.statOnly, PATHS.length);
  assert.deepEqual(cut.warnings, []);
});

test("a file that was not valid is not kept: it is read and validated again", async () => {
  const { content, cache } = await fixture();
  await ageBeyondMargin();
  const read = await readReviewFiles(content, PATHS, cache);
  const valid = new Map(
    read.files.flatMap((f) => ("text" in f && f.path !== PATHS[0] ? [[f.path, JSON.parse(f.text)]] : [])),
  );
  await read.save(valid);
  const again = await readReviewFiles(content, PATHS, cache);
  assert.ok("text" in again.files[0]);
  assert.equal(again.statOnly, PATHS.length - 1);
});

test("the stats are the files' own, in order; a missing file fails", async () => {
  const { content } = await fixture();
  const here = await statFiles(content, PATHS);
  const s = await stat(join(content, PATHS[1]));
  assert.deepEqual([...here.subarray(4, 8)], [s.size, s.mtimeMs, s.ctimeMs, s.ino]);
  assert.equal(here[5], MTIME * 1000);
  await assert.rejects(statFiles(content, [...PATHS, "reviews/gone.json"]), /ENOENT/);
});

test("the guard's result is kept per file under its fingerprint; a changed file or another fingerprint drops it", async () => {
  const { content, cache } = await fixture();
  await ageBeyondMargin(); // trusted from their stat: the lines kept are the ones that change
  const first = await readReviewFiles(content, PATHS, cache);
  assert.equal(first.cleanUnder(PATHS[0]), undefined);
  const valid = new Map(first.files.map((f) => [f.path, "content" in f ? f.content : JSON.parse(f.text)]));
  await first.save(valid, { fingerprint: "g1", clean: new Set([PATHS[0], PATHS[1]]) });
  const second = await readReviewFiles(content, PATHS, cache);
  assert.deepEqual(PATHS.map(second.cleanUnder), ["g1", "g1", undefined]);
  await second.save(valid); // no guard ran (PII_POLICY=off): what was recorded stays
  await writeFile(join(content, PATHS[1]), JSON.stringify(review("Text changed.")));
  const third = await readReviewFiles(content, PATHS, cache);
  assert.deepEqual(PATHS.map(third.cleanUnder), ["g1", undefined, undefined], "a changed text is searched again");
  const validNow = new Map(third.files.map((f) => [f.path, "content" in f ? f.content : JSON.parse(f.text)]));
  await third.save(validNow, { fingerprint: "g2", clean: new Set([PATHS[2]]) });
  const fourth = await readReviewFiles(content, PATHS, cache);
  assert.equal(fourth.statOnly, 2);
  assert.deepEqual(PATHS.map(fourth.cleanUnder), [undefined, undefined, "g2"]);
  const lines = (await readFile(join(cache, "content-snapshot.ndjson"), "utf8")).trim().split("\n");
  assert.equal(lines.length, 1 + PATHS.length, "most lines changed: the file was written whole, not appended to");
  assert.deepEqual(
    fourth.files.map((f) => ("content" in f ? f.content.text : JSON.parse(f.text).text)),
    ["Text 0.", "Text changed.", "Text 2."],
  );
});
