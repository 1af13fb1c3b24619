// npm run publish end to end: a real build handed to a real sidecar process, a temporary static folder as the
// target. Success, a refusal by the sidecar (build for another BASE_URL) and the production guard.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { SERVER_BUNDLE_DIR } from "../../src/build/write-manifest.ts";
import { sha256Hex } from "../../src/domain/hash.ts";
import { MANIFEST_FILE } from "../../src/domain/schemas/manifest.ts";
import { buildSample, contentFixture } from "../helpers/build.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";
import { type SidecarProcess, startSidecarProcess } from "../helpers/sidecar-process.ts";

const BASE_URL = "http://localhost:4321";

let root: string;
let dist: string;
let target: string;
let content: string;
let sidecar: SidecarProcess;

before(async () => {
  root = await tempDir("publish");
  dist = join(root, "dist");
  target = join(root, "www");
  await cp(await buildSample(BASE_URL), dist, { recursive: true, preserveTimestamps: true });
  sidecar = await startSidecarProcess({ DIST_DIR: dist, BASE_URL, DATA_DIR: join(root, "data") });
  content = await contentFixture({
    "reviews/2026/zz-published.json": {
      rating: 5,
      date: "2026-11-01",
      text: "Came out the same day and fixed the furnace.",
      author: "Pia L.",
      verified: true,
    },
  });
});
after(() => sidecar?.stop());

function publish(args: string[], env: Record<string, string | undefined>) {
  const childEnv: Record<string, string> = { ...(process.env as Record<string, string>), CI: "false" };
  for (const [k, v] of Object.entries({ CONTENT_DIR: content, DIST_DIR: dist, BASE_URL, ...env })) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  return promisify(execFile)(process.execPath, [join(ROOT, "scripts/publish.ts"), ...args], {
    cwd: ROOT,
    env: childEnv,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

const buildId = async (dir: string) => JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8")).build_id as string;
const served = async () => ((await (await fetch(`${sidecar.url}/readyz`)).json()) as { build_id: string }).build_id;

/** Every published file of a folder with its bytes' hash and mtime (the pages' server code stays with the sidecar). */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    if (path.slice(dir.length).startsWith(`/${SERVER_BUNDLE_DIR}/`)) continue;
    out[path.slice(dir.length)] = `${sha256Hex(await readFile(path))} ${(await stat(path)).mtimeMs}`;
  }
  return out;
}

test("publish builds, the sidecar switches to the new build, then the target holds exactly that build", async () => {
  const old = await buildId(dist);
  const run = await publish(["--target", target, "--sidecar", sidecar.url, "--timeout", "30"], {});
  assert.equal(run.code, 0, run.stderr);
  const next = await buildId(dist);
  assert.notEqual(next, old, "the new review makes a new build");
  assert.equal(await served(), next, "the sidecar serves the new build");
  assert.equal(await buildId(target), next);
  assert.equal(await buildId(`${dist}.previous`), old, "the replaced build is kept for a rollback");
  const inDist = await snapshot(dist);
  const inTarget = await snapshot(target);
  delete inDist[`/${MANIFEST_FILE}`];
  delete inTarget[`/${MANIFEST_FILE}`];
  assert.deepEqual(inTarget, inDist, "same files, bytes and mtimes");
  const feed = await (await fetch(`${sidecar.url}/feed.xml`)).text();
  assert.match(feed, /Came out the same day/);

  const again = await publish(["--target", target, "--sidecar", sidecar.url, "--timeout", "30"], {});
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /0 files written/, "an unchanged build rewrites nothing");
});

test("a build the sidecar refuses (another BASE_URL): exit 1, the target untouched, DIST_DIR restored", async () => {
  const live = await buildId(dist);
  const targetBefore = await snapshot(target);
  const run = await publish(["--target", target, "--sidecar", sidecar.url, "--timeout", "3"], {
    BASE_URL: "https://reviews.example.com",
  });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /did not switch to build [0-9a-f]+ within 3 s/);
  assert.match(run.stderr, /build\.reload_failed/);
  assert.deepEqual(await snapshot(target), targetBefore);
  assert.equal(await buildId(dist), live, "DIST_DIR holds the served build again");
  assert.equal(await served(), live);
  assert.ok(
    sidecar.logs.some((l) => l.event === "build.reload_failed"),
    "the sidecar refused the build it was handed",
  );
  // The failed publish shows in the sidecar's readiness and metrics until a publish succeeds.
  const ready = await (await fetch(`${sidecar.url}/readyz`)).json();
  assert.equal(ready.status, "ready");
  assert.equal(ready.build.status, "stale");
  assert.match(ready.build.error, /npm run publish failed: .*did not switch/s);
  assert.ok(Date.parse(ready.build.failing_since) > 0);
  const stale = /^reviews_build_stale_seconds (\S+)$/m.exec(await (await fetch(`${sidecar.url}/metrics`)).text());
  assert.ok(Number(stale?.[1]) > 0);
});

test("the default BASE_URL is refused with CI=true or --production, before anything is built", async () => {
  const distBefore = await snapshot(dist);
  const ci = await publish(["--target", target, "--sidecar", sidecar.url], { CI: "true", BASE_URL: undefined });
  assert.equal(ci.code, 1);
  assert.match(ci.stderr, /BASE_URL is http:\/\/localhost:4321 \(CI=true\)/);
  const prod = await publish(["--production", "--sidecar", sidecar.url], { BASE_URL: "http://127.0.0.1:8080" });
  assert.equal(prod.code, 1);
  assert.match(prod.stderr, /BASE_URL is http:\/\/127\.0\.0\.1:8080 \(--production\)/);
  assert.deepEqual(await snapshot(dist), distBefore);
  await assert.rejects(stat(`${dist}.incoming`), "nothing was staged");
});

test("a target inside DIST_DIR and a second publish at the same time are refused", async () => {
  const inside = await publish(["--target", join(dist, "www"), "--sidecar", sidecar.url], {});
  assert.equal(inside.code, 1);
  assert.match(inside.stderr, /must be a folder of its own/);
  await writeFile(`${dist}.publish-lock`, "4242\n");
  try {
    const second = await publish(["--target", target, "--sidecar", sidecar.url], {});
    assert.equal(second.code, 1);
    assert.match(second.stderr, /Another publish \(pid 4242\) holds/);
  } finally {
    await rm(`${dist}.publish-lock`);
  }
});

test("--sidecar repeated: every instance on DIST_DIR must switch; one that does not takes the hand-over back", async () => {
  const second = await startSidecarProcess({ DIST_DIR: dist, BASE_URL, DATA_DIR: join(root, "data-2") });
  try {
    await writeFile(
      join(content, "reviews", "2026", "zz-two-instances.json"),
      JSON.stringify({ rating: 4, date: "2026-11-02", text: "Quick and tidy.", author: "Ola N.", verified: true }),
    );
    const both = await publish(["--target", target, "--sidecar", sidecar.url, "--sidecar", second.url], {});
    assert.equal(both.code, 0, both.stderr);
    const next = await buildId(dist);
    for (const s of [sidecar, second]) {
      const ready = await (await fetch(`${s.url}/readyz`)).json();
      assert.equal(ready.build_id, next);
      assert.equal(ready.build.status, "ok", "a publish that succeeds clears the failure before it");
      assert.match(both.stdout, new RegExp(`the sidecar at ${s.url} serves build ${next}`));
    }

    await rm(join(content, "reviews", "2026", "zz-two-instances.json"));
    const down = `http://127.0.0.1:${new URL(second.url).port}`;
    await second.stop();
    const live = await buildId(dist);
    const run = await publish(["--target", target, "--sidecar", sidecar.url, "--sidecar", down, "--timeout", "3"], {});
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`${down}: The sidecar did not switch`));
    assert.equal(await buildId(dist), live, "DIST_DIR holds the previous build again");
  } finally {
    await second.stop();
  }
});
