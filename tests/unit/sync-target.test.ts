// The static folder sync: publishing order, atomic unchanged files, and what it deletes (pure file system, no HTTP).
import assert from "node:assert/strict";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { syncToTarget } from "../../src/deploy/sync-target.ts";
import { sha256Hex } from "../../src/domain/hash.ts";
import { mediaTypeOf } from "../../src/domain/media-types.ts";
import { type BuildManifest, MANIFEST_FILE } from "../../src/domain/schemas/manifest.ts";
import { HEADERS_FILE } from "../../src/domain/static-headers.ts";
import { tempDir } from "../helpers/paths.ts";

/** A build folder with these files (URL path -> text); each also gets a .gz sibling, as big files do. */
async function fakeBuild(files: Record<string, string>): Promise<string> {
  const dir = await tempDir("sync-build");
  const manifest: BuildManifest = {
    manifest_version: 1,
    base_url: "https://reviews.example.com",
    build_id: sha256Hex(JSON.stringify(files)).slice(0, 32),
    last_modified: null,
    review_count: 0,
    files: {},
  };
  for (const [urlPath, text] of Object.entries(files)) {
    const file = urlPath === "/" ? "index.html" : urlPath.slice(1);
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
    await writeFile(join(dir, `${file}.gz`), `gz:${text}`);
    manifest.files[urlPath] = {
      file,
      type: mediaTypeOf(urlPath, file),
      sha256: sha256Hex(text),
      size: text.length,
      encodings: { gzip: { file: `${file}.gz`, sha256: sha256Hex(`gz:${text}`), size: text.length + 3 } },
    };
  }
  await writeFile(join(dir, HEADERS_FILE), `/*\n  X-Build: ${manifest.build_id}\n`);
  await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(manifest));
  return dir;
}

test("assets first, then data, then pages, _headers, and the manifest last; files of no build deleted", async () => {
  const build = await fakeBuild({
    "/": "<script src=/_astro/app.1.js>",
    "/reviews.json": "{}",
    "/feed.xml": "<feed/>",
    "/_astro/app.1.js": "1",
  });
  const target = await tempDir("sync-target");
  await syncToTarget(await fakeBuild({ "/": "older" }), target);
  await writeFile(join(target, "stale.json"), "from an old build");
  const report = await syncToTarget(build, target);
  assert.deepEqual(report.written, [
    "_astro/app.1.js.gz",
    "_astro/app.1.js",
    "feed.xml.gz",
    "feed.xml",
    "reviews.json.gz",
    "reviews.json",
    "index.html.gz",
    "index.html",
    HEADERS_FILE,
    MANIFEST_FILE,
  ]);
  assert.deepEqual(report.deleted, ["stale.json"]);
  assert.equal(await readFile(join(target, "index.html"), "utf8"), "<script src=/_astro/app.1.js>");
});

test("unchanged files are left alone; the previous build's hashed assets stay one more build", async () => {
  const target = await tempDir("sync-target");
  const first = await fakeBuild({ "/": "v1 /_astro/app.1.js", "/_astro/app.1.js": "1", "/reviews.json": "{}" });
  await syncToTarget(first, target);
  const inode = (await stat(join(target, "reviews.json"))).ino;

  const second = await fakeBuild({ "/": "v2 /_astro/app.2.js", "/_astro/app.2.js": "2", "/reviews.json": "{}" });
  const report = await syncToTarget(second, target);
  assert.ok(report.unchanged.includes("reviews.json"));
  assert.equal((await stat(join(target, "reviews.json"))).ino, inode, "not rewritten");
  assert.ok(!report.written.includes("reviews.json"));
  assert.equal(await readFile(join(target, "_astro/app.1.js"), "utf8"), "1", "a page cached from build 1 still works");
  assert.deepEqual(report.deleted, []);

  const third = await fakeBuild({ "/": "v3 /_astro/app.2.js", "/_astro/app.2.js": "2", "/reviews.json": "{}" });
  const last = await syncToTarget(third, target);
  assert.deepEqual(last.deleted, ["_astro/app.1.js", "_astro/app.1.js.gz"]);
  await rm(target, { recursive: true, force: true });
});

test("a folder without a manifest is refused as a source, a non-empty one without a manifest as a target", async () => {
  const notABuild = await tempDir("sync-build");
  await assert.rejects(syncToTarget(notABuild, await tempDir("sync-target")), /no valid \.build-manifest\.json/);
  const someoneElses = await tempDir("sync-target");
  await writeFile(join(someoneElses, "notes.txt"), "keep me");
  await assert.rejects(syncToTarget(await fakeBuild({ "/": "x" }), someoneElses), /not a folder that publish filled/);
  assert.equal(await readFile(join(someoneElses, "notes.txt"), "utf8"), "keep me");
});
