// A build whose code did not change reuses the Astro bundle the last full build kept (src/build/astro-bundle.ts)
// and never starts Astro: its output equals a clean full build of the same content byte for byte, and anything
// Astro bundles or a damaged kept bundle takes the full path, saying why.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { bundleFingerprint } from "../../src/build/astro-bundle.ts";
import { LINE_FILES } from "../../src/build/line-file.ts";
import { SERVER_BUNDLE_DIR } from "../../src/build/write-manifest.ts";
import { changeOneReview, contentFixture } from "../helpers/build.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";

const run = promisify(execFile);
const BASE = "http://localhost:4321";
const OTHER = "http://127.0.0.1:4321";

interface Built {
  dist: string;
  path: string;
  astro: string;
  timings: Record<string, number>;
}

async function build(content: string, cache: string, baseUrl = BASE): Promise<Built> {
  const out = join(await tempDir("dist"), "dist");
  const { stdout } = await run(process.execPath, [join(ROOT, "scripts/build.ts"), "--timings"], {
    cwd: ROOT,
    env: { ...process.env, CONTENT_DIR: content, DIST_DIR: out, BUILD_CACHE_DIR: cache, BASE_URL: baseUrl },
  });
  const lines = stdout.trim().split("\n");
  const last = JSON.parse(lines.at(-1) as string);
  return { dist: out, path: last.path, astro: lines.find((l) => l.startsWith("astro: ")) ?? "", timings: last.timings };
}

/** Every file of a build, or (`bundle`) only its server bundle's. */
async function filesOf(dir: string, bundle = false): Promise<Map<string, Buffer>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, Buffer>();
  for (const e of entries.filter((x) => x.isFile())) {
    const path = join(e.parentPath, e.name);
    if (relative(dir, path).startsWith(`${SERVER_BUNDLE_DIR}/`) !== bundle) continue;
    files.set(relative(dir, path), await readFile(path));
  }
  return files;
}

async function assertSameFiles(a: string, b: string, bundle = false): Promise<void> {
  const x = await filesOf(a, bundle);
  const y = await filesOf(b, bundle);
  assert.ok(x.size > 10, `${x.size} files compared`);
  assert.deepEqual([...x.keys()].sort(), [...y.keys()].sort());
  for (const [name, bytes] of x) assert.ok(bytes.equals(y.get(name) as Buffer), `${name} differs`);
}

/** Where a build cache keeps its bundle (src/build/astro-bundle.ts). */
const bundleFolder = async (cache: string) =>
  join(cache, "astro-bundle", (await bundleFingerprint({ root: ROOT })).slice(0, 16));

/**
 * A build cache as a full build of the sample leaves it for BASE: its kept bundle and its reviews' analysis. The
 * runner built the sample once and gave each test process a copy of that cache (tests/helpers/paths.ts); a copy
 * of it here saves a full build. A process given none (this file run on its own) makes it with a full build.
 */
async function sampleCache(content: string): Promise<string> {
  const cache = await tempDir("cache");
  const given = process.env.BUILD_CACHE_DIR as string;
  if (!existsSync(await bundleFolder(given))) {
    const first = await build(content, cache);
    assert.equal(first.path, "full");
    return cache;
  }
  await cp(await bundleFolder(given), await bundleFolder(cache), { recursive: true });
  await cp(join(given, LINE_FILES.analysis), join(cache, LINE_FILES.analysis));
  return cache;
}

test("a rebuild after one changed review skips Astro, equals a clean full build and keeps the kept bundle's server code", async () => {
  const content = await contentFixture();
  const cache = await sampleCache(content);
  await changeOneReview(content);
  const fast = await build(content, cache);
  assert.equal(fast.path, "data-only");
  assert.match(fast.astro, /astro: skipped/);
  assert.equal(fast.timings.astro_total, 0);
  assert.equal(fast.timings.reviews_analysed, 1);
  const clean = await build(content, await tempDir("cache"));
  assert.equal(clean.path, "full");
  assert.match(clean.astro, /^astro: bundled \(no bundle kept for this code /);
  assert.ok(clean.timings.astro_total > 0);
  // Every published file (what the manifest lists, the manifest, _headers, the variants) as a clean full build.
  await assertSameFiles(fast.dist, clean.dist);
  // The server code the sidecar loads is the kept bundle's own, byte for byte, not the clean build's. (Two full
  // builds never make the same bundle: Astro puts a random key and its output folder's path in it.)
  await assertSameFiles(fast.dist, join(await bundleFolder(cache), "out"), true);
});

test("another BASE_URL reuses the kept bundle and equals a clean full build for it", async () => {
  const content = await contentFixture();
  const cache = await sampleCache(content);
  const other = await build(content, cache, OTHER);
  assert.equal(other.path, "data-only", "the bundle does not depend on BASE_URL");
  const clean = await build(content, await tempDir("cache"), OTHER);
  assert.equal(clean.path, "full");
  await assertSameFiles(other.dist, clean.dist);
  const origin = new URL(OTHER).origin;
  const home = await readFile(join(other.dist, "index.html"), "utf8");
  assert.ok(home.includes(origin), `the home page names ${origin}`);
  assert.ok(!home.includes(new URL(BASE).host), "and not the sample's origin");
});

test("a damaged, foreign or missing kept bundle takes the full path and says why", async () => {
  const content = await contentFixture();
  const cache = await sampleCache(content);
  assert.equal((await build(content, cache, OTHER)).path, "data-only");
  const folder = await bundleFolder(cache);
  const out = join(folder, "out", SERVER_BUNDLE_DIR, "entry.mjs");
  await writeFile(out, `${await readFile(out, "utf8")}\nthrow new Error("damaged");\n`);
  const damaged = await build(content, cache, OTHER);
  assert.equal(damaged.path, "full");
  assert.match(damaged.astro, /is damaged \(_server\/entry\.mjs\)/);
  const again = await build(content, cache, OTHER);
  assert.equal(again.path, "data-only", "the damaged bundle was replaced");
  await assertSameFiles(again.dist, damaged.dist);

  const record = join(folder, "bundle.json");
  await writeFile(record, JSON.stringify({ fingerprint: "someone else's", files: {} }));
  const foreign = await build(content, cache, OTHER);
  assert.equal(foreign.path, "full");
  assert.match(foreign.astro, /is foreign/);
  await writeFile(record, "{ not json");
  assert.match((await build(content, cache, OTHER)).astro, /is unreadable/);
});
