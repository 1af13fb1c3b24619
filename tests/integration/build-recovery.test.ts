// A build killed between its two renames, and a rebuild that fails: the site keeps being served, and /readyz and
// /metrics say the build is stale until a good build lands.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { contentFixture, runBuild } from "../helpers/build.ts";
import { until } from "../helpers/callback-server.ts";
import { tempDir } from "../helpers/paths.ts";
import { startSidecarProcess } from "../helpers/sidecar-process.ts";

const BASE_URL = "http://localhost:4321";
const run = promisify(execFile);
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
    // The failure at start is not forgotten: it is retried, and /readyz says the build served is stale.
    const ready = await until(
      "the failure in /readyz",
      async () => {
        const body = await (await fetch(`${sidecar.url}/readyz`)).json();
        return body.build.status === "stale" && body;
      },
      60_000,
    );
    assert.match(ready.build.error, /broken\.json/);
  } finally {
    await sidecar.stop();
  }
});

test("npm run serve -- --watch: a rebuild that fails keeps serving, /readyz and /metrics say so, a fix recovers", async () => {
  const content = await contentFixture();
  const git = (...args: string[]) =>
    run("git", ["-C", content, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args]);
  await git("init", "-q");
  await git("add", ".");
  await git("commit", "-q", "-m", "content");
  const head = (await git("rev-parse", "HEAD")).stdout.trim();
  const root = await tempDir("watch-fail");
  const dist = join(root, "dist");
  assert.equal((await runBuild({ CONTENT_DIR: content, DIST_DIR: dist, BASE_URL })).code, 0);
  const sidecar = await startSidecarProcess(
    { CONTENT_DIR: content, DIST_DIR: dist, DATA_DIR: join(root, "data"), BASE_URL, LOG_LEVEL: "info" },
    "sidecar/server.ts",
    ["--watch"],
  );
  const ready = async () => (await fetch(`${sidecar.url}/readyz`)).json();
  const metrics = async () => (await fetch(`${sidecar.url}/metrics`)).text();
  const sample = (text: string, name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1]);
  try {
    const first = await ready();
    assert.equal(first.build.status, "ok");
    assert.match(
      await metrics(),
      new RegExp(`reviews_build_info\\{build_id="${first.build_id}",content_revision="${head}"\\} 1`),
    );
    assert.equal(sample(await metrics(), "reviews_build_stale_seconds"), 0);

    await writeFile(join(content, "reviews", "broken.json"), "{ not json");
    const stale = await until(
      "the failed rebuild reported",
      async () => {
        const body = await ready();
        return body.build.status === "stale" && body;
      },
      60_000,
    );
    assert.equal((await fetch(`${sidecar.url}/readyz`)).status, 200, "still ready: the last good build is served");
    assert.equal(stale.build_id, first.build_id, "the build in service is named");
    assert.match(stale.build.error, /broken\.json/);
    assert.ok(Date.parse(stale.build.failing_since) > Date.parse(first.started_at));
    assert.equal((await fetch(`${sidecar.url}/reviews.json`)).status, 200);
    const failing = await metrics();
    assert.ok(sample(failing, "reviews_build_failures_total") >= 1);
    assert.ok(sample(failing, "reviews_build_stale_seconds") > 0, "the content is ahead of the build served");
    const lastGood = sample(failing, "reviews_build_last_success_timestamp_seconds");
    assert.ok(sidecar.logs.some((l) => l.event === "content.rebuild_failed" && typeof l.retry_in_ms === "number"));

    await rm(join(content, "reviews", "broken.json"));
    await writeFile(
      join(content, "reviews", "2026-11-22-after-fix.json"),
      JSON.stringify({ rating: 4, date: "2026-11-22", text: "Fixed it.", author: "Ana B.", verified: true }),
    );
    await git("add", "-A");
    await git("commit", "-q", "-m", "fix");
    const fixed = (await git("rev-parse", "HEAD")).stdout.trim();
    // The fix is several file events (a delete, a write, a commit): a build that began between them is followed
    // by another, and until that one the served build is rightly reported stale. Wait for the build that holds all.
    const recovered = await until(
      "a current build after the fix",
      async () => {
        const body = await ready();
        if (body.build.status !== "ok" || body.build_id === first.build_id) return false;
        const now = await metrics();
        return sample(now, "reviews_build_stale_seconds") === 0 && now.includes(`content_revision="${fixed}"`) && body;
      },
      60_000,
    );
    assert.equal(recovered.build.error, null);
    const after = await metrics();
    assert.ok(sample(after, "reviews_build_last_success_timestamp_seconds") > lastGood);
    assert.equal(sample(after, "reviews_build_stale_seconds"), 0);
    assert.ok(sample(after, "reviews_build_failures_total") >= 1, "failures are counted, not forgotten");
    assert.match(after, new RegExp(`content_revision="${fixed}"`));
  } finally {
    await sidecar.stop();
  }
});
