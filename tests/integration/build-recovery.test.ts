// A build killed between its two renames, and a rebuild that fails: the site keeps being served.
import assert from "node:assert/strict";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { contentFixture, runBuild } from "../helpers/build.ts";
import { tempDir } from "../helpers/paths.ts";
import { startSidecarProcess } from "../helpers/sidecar-process.ts";

const BASE_URL = "http://localhost:4321";
const siblings = async (root: string) => (await readdir(root)).sort();

test("a build killed between its renames leaves a state that the next sidecar start and build repair", async () => {
  const content = await contentFixture();
  const root = await tempDir("recovery");
  const dist = join(root, "dist");
  const first = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist, BASE_URL });
  assert.equal(first.code, 0, first.stderr);

  const killed = await runBuild({
    CONTENT_DIR: content,
    DIST_DIR: dist,
    BASE_URL,
    BUILD_TEST_FAULT: "kill-between-renames",
  });
  assert.equal(killed.signal, "SIGKILL", "the hook killed the build");
  const left = await siblings(root);
  assert.ok(!left.includes("dist"), `no dist/ after the kill: ${left.join(", ")}`);
  assert.ok(
    left.some((n) => n.startsWith("dist.old-")),
    "the previous build is still on disk",
  );

  const sidecar = await startSidecarProcess({ CONTENT_DIR: content, DIST_DIR: dist, BASE_URL });
  try {
    const r = await fetch(`${sidecar.url}/reviews.json`);
    assert.equal(r.status, 200, "the restarted sidecar serves the last live build");
    assert.ok((await r.json()).reviews.length > 0);
    assert.ok(sidecar.logs.some((l) => l.event === "build.recovered"));
  } finally {
    await sidecar.stop();
  }
  assert.deepEqual(await siblings(root), ["dist"], "the leftovers of the killed build are gone");

  const again = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist, BASE_URL });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(await siblings(root), ["dist"]);
});

test("a build whose output folder cannot be created fails with a message naming DIST_DIR, no stack trace", async () => {
  const content = await contentFixture();
  const root = await tempDir("unwritable");
  await writeFile(join(root, "file"), "not a folder");
  const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: join(root, "file", "dist"), BASE_URL });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /DIST_DIR/);
  assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
});

test("npm start serves the last good build when the rebuild at start fails", async () => {
  const content = await contentFixture();
  const root = await tempDir("start-bad");
  const dist = join(root, "dist");
  assert.equal((await runBuild({ CONTENT_DIR: content, DIST_DIR: dist, BASE_URL })).code, 0);
  // A bad edit after the last build: the content is newer than the build, so npm start rebuilds, and fails.
  await writeFile(join(content, "reviews", "broken.json"), "{ not json");
  const sidecar = await startSidecarProcess(
    { CONTENT_DIR: content, DIST_DIR: dist, DATA_DIR: join(root, "data"), BASE_URL },
    "sidecar/start.ts",
  );
  try {
    assert.equal((await fetch(`${sidecar.url}/reviews.json`)).status, 200);
  } finally {
    await sidecar.stop();
  }
});
