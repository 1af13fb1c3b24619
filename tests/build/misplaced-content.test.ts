// A review file the build would not read is named in a warning, and the build still succeeds; with --strict
// (for CI) it fails the build instead, naming the file, and the previous output stays.
import assert from "node:assert/strict";
import { readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { contentFixture, runBuild, runScript } from "../helpers/build.ts";
import { tempDir } from "../helpers/paths.ts";

test("JSON outside reviews/ and non-JSON inside it are reported as ignored", async () => {
  const review = { rating: 5, date: "2025-03-04", text: "Great job.", author: "Ann B.", verified: true };
  const content = await contentFixture({
    "x.json": review,
    "2024/y.json": review,
    "reviews/2024/z.txt": JSON.stringify(review),
    "reviews/2024/.notes.json": review,
    "editorial.md": "Summary.",
  });
  const dist = join(await tempDir("dist"), "dist");
  try {
    const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /warning: x\.json was ignored: review files belong under reviews\/ \(for example reviews\/x\.json\)/,
    );
    assert.match(run.stderr, /warning: 2024\/y\.json was ignored: review files belong under reviews\//);
    assert.match(run.stderr, /warning: reviews\/2024\/z\.txt was ignored: review files end in \.json/);
    assert.doesNotMatch(run.stderr, /business\.json|editorial\.md|\.notes/);
    const ids = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")).reviews.map((r: { id: string }) => r.id);
    assert.ok(!ids.includes("x") && !ids.includes("y") && !ids.includes("z"));
  } finally {
    await rm(content, { recursive: true, force: true });
    await rm(dist, { recursive: true, force: true });
  }
});

test("a symbolic link is named as ignored; a file with a UTF-8 byte order mark is read", async () => {
  const review = { rating: 5, date: "2025-03-04", text: "Great job.", author: "Ann B.", verified: true };
  const content = await contentFixture({
    "reviews/2024/with-bom.json": `\ufeff${JSON.stringify(review)}`,
  });
  const elsewhere = await tempDir("elsewhere");
  await writeFile(join(elsewhere, "linked.json"), JSON.stringify(review));
  await symlink(join(elsewhere, "linked.json"), join(content, "reviews/2024/linked.json"));
  await symlink(elsewhere, join(content, "reviews/linked-folder"));
  const dist = join(await tempDir("dist"), "dist");
  try {
    const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /warning: reviews\/2024\/linked\.json was ignored: it is a symbolic link/);
    assert.match(run.stderr, /warning: reviews\/linked-folder was ignored: it is a symbolic link/);
    const ids = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")).reviews.map((r: { id: string }) => r.id);
    assert.ok(ids.includes("with-bom"), "the file with a BOM is published");
    assert.ok(!ids.includes("linked"));
  } finally {
    await rm(content, { recursive: true, force: true });
    await rm(dist, { recursive: true, force: true });
    await rm(elsewhere, { recursive: true, force: true });
  }
});

test("with --strict a misplaced review fails the build, named with where it belongs, and the last build stays", async () => {
  const review = { rating: 5, date: "2025-03-04", text: "Great job.", author: "Ann B.", verified: true };
  const content = await contentFixture();
  const dist = join(await tempDir("dist"), "dist");
  const env = { CONTENT_DIR: content, DIST_DIR: dist, BASE_URL: "http://localhost:4321" };
  assert.equal((await runScript("scripts/build.ts", ["--strict"], env)).code, 0, "a clean folder passes --strict");
  const before = await readFile(join(dist, "reviews.json"));
  await writeFile(join(content, "lost.json"), JSON.stringify(review));
  const run = await runScript("scripts/build.ts", ["--strict"], env);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /lost\.json: \(file\): not published: review files belong under reviews\/ \(for example reviews\/lost\.json\)/,
  );
  assert.match(run.stderr, /an error with --strict/);
  assert.ok(before.equals(await readFile(join(dist, "reviews.json"))), "the previous output is untouched");
});
