// Publishing on commit without hosted CI: npm run publish-hook -- install puts git hooks into the repository of
// CONTENT_DIR; a commit on the branch builds and publishes (the sidecar serves the review, a WebSub subscriber
// receives the new feed); a commit on another branch publishes nothing; a foreign hook is not overwritten.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { contentFixture, runBuild, runScript } from "../helpers/build.ts";
import { CallbackServer, until } from "../helpers/callback-server.ts";
import { BASE, hubRequest, subscriptions, TOPICS } from "../helpers/hub-fixture.ts";
import { tempDir, testBuildCache } from "../helpers/paths.ts";
import { startSidecarProcess } from "../helpers/sidecar-process.ts";
import { makeTestPki } from "../helpers/tls.ts";

const run = promisify(execFile);

test("a commit on the branch is published and pushed to subscribers; another branch is not", async () => {
  const content = await contentFixture();
  // What a person committing has: no service configuration in the environment, so the hook must carry it.
  const gitEnv = { PATH: process.env.PATH ?? "", HOME: await tempDir("home"), CI: "false" };
  const git = (...args: string[]) =>
    run("git", ["-C", content, "-c", "user.name=Editor", "-c", "user.email=editor@example.com", ...args], {
      env: gitEnv,
    });
  await git("init", "-q", "-b", "main");
  await git("add", ".");
  await git("commit", "-q", "-m", "content");

  const root = await tempDir("hook");
  const dist = join(root, "dist");
  const dataDir = join(root, "data");
  assert.equal((await runBuild({ CONTENT_DIR: content, DIST_DIR: dist, BASE_URL: BASE })).code, 0);
  const pki = await makeTestPki();
  const cb = await CallbackServer.start(pki);
  const sidecar = await startSidecarProcess({
    DIST_DIR: dist,
    DATA_DIR: dataDir,
    BASE_URL: BASE,
    NODE_EXTRA_CA_CERTS: pki.caFile,
    HUB_CALLBACK_ALLOWLIST: "127.0.0.0/8",
    HUB_TIMEOUT_MS: "2000",
  });
  try {
    const r = await hubRequest(sidecar.url, {
      "hub.mode": "subscribe",
      "hub.topic": TOPICS.json,
      "hub.callback": cb.url("/c"),
    });
    assert.equal(r.status, 202);
    await until("verified", () => subscriptions(dataDir).length === 1);

    const install = await runScript(
      "scripts/publish-hook.ts",
      ["install", "--", "--sidecar", sidecar.url, "--timeout", "60"],
      {
        CONTENT_DIR: content,
        DIST_DIR: dist,
        BASE_URL: BASE,
        BUILD_CACHE_DIR: testBuildCache(),
      },
    );
    assert.equal(install.code, 0, install.stderr);
    assert.match(install.stdout, /each commit on main/);
    assert.ok((await stat(join(content, ".git", "hooks", "post-commit"))).mode & 0o100, "executable");

    await writeFile(
      join(content, "reviews", "2026-11-23-committed.json"),
      JSON.stringify({
        rating: 5,
        date: "2026-11-23",
        text: "Committed and published.",
        author: "Gil T.",
        verified: true,
      }),
    );
    await git("add", ".");
    // git shows a hook's output on its stderr.
    const commit = await git("commit", "-m", "a review");
    assert.match(commit.stderr, /publishing [0-9a-f]+ \.\.\./);
    assert.match(commit.stderr, /the sidecar at .* serves build/);
    // The commit returns once the sidecar serves the build: no waiting needed here.
    const search = await (await fetch(`${sidecar.url}/api/reviews/search?limit=1`)).json();
    assert.equal(search.reviews[0].id, "2026-11-23-committed");
    const ping = await until("the fat ping", () => cb.posts("/c")[0], 30_000);
    assert.equal(JSON.parse(ping.body.toString("utf8")).items[0].id, `${BASE}/#review-2026-11-23-committed`);
    const head = (await git("rev-parse", "HEAD")).stdout.trim();
    const metrics = await (await fetch(`${sidecar.url}/metrics`)).text();
    assert.match(metrics, new RegExp(`content_revision="${head}"`), "the build records the commit");

    const served = (await (await fetch(`${sidecar.url}/readyz`)).json()).build_id;
    // A bad commit: the commit is made, the site keeps its build, and the sidecar says the build is stale.
    await writeFile(join(content, "reviews", "broken.json"), "{ not json");
    await git("add", ".");
    const bad = await git("commit", "-m", "a broken review").catch((e: { stderr: string }) => e);
    assert.match(bad.stderr, /publish failed \(exit 1\): the commit is made, the site still serves the previous build/);
    const stale = await (await fetch(`${sidecar.url}/readyz`)).json();
    assert.equal(stale.build_id, served);
    assert.equal(stale.build.status, "stale");
    assert.match(stale.build.error, /broken\.json/);
    await git("rm", "-q", join(content, "reviews", "broken.json"));
    const fixed = await git("commit", "-m", "fix");
    assert.match(fixed.stderr, /serves build/);
    assert.equal((await (await fetch(`${sidecar.url}/readyz`)).json()).build.status, "ok");

    await git("checkout", "-q", "-b", "draft");
    await writeFile(
      join(content, "reviews", "2026-11-24-draft.json"),
      JSON.stringify({ rating: 3, date: "2026-11-24", text: "Not yet.", author: "Dee R.", verified: true }),
    );
    await git("add", ".");
    const draft = await git("commit", "-m", "a draft");
    assert.doesNotMatch(draft.stderr, /publishing/);
    assert.equal((await (await fetch(`${sidecar.url}/readyz`)).json()).build_id, served);

    const removed = await runScript("scripts/publish-hook.ts", ["uninstall"], { CONTENT_DIR: content });
    assert.equal(removed.code, 0, removed.stderr);
    await assert.rejects(stat(join(content, ".git", "hooks", "post-commit")));
  } finally {
    await sidecar.stop();
    await cb.close();
  }
});

test("install refuses a hook it did not write, and a CONTENT_DIR outside git, saying what to do", async () => {
  const content = await contentFixture();
  const outside = await runScript("scripts/publish-hook.ts", ["install"], { CONTENT_DIR: content });
  assert.equal(outside.code, 1);
  assert.match(outside.stderr, /is not in a git repository: run git init there first/);
  await run("git", ["-C", content, "init", "-q", "-b", "main"]);
  const hook = join(content, ".git", "hooks", "post-merge");
  await writeFile(hook, "#!/bin/sh\necho mine\n");
  const refused = await runScript("scripts/publish-hook.ts", ["install"], { CONTENT_DIR: content });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /post-merge exists and is not this service's hook: .*--force/);
  assert.equal(await readFile(hook, "utf8"), "#!/bin/sh\necho mine\n");
});
