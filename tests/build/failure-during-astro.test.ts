// Astro bundles while the site data is computed (src/build/build-site.ts): a failure on the data side after Astro
// started fails the build once, leaves the previous output as it was and no temporary folder beside it.
import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { MANIFEST_FILE } from "../../src/domain/schemas/manifest.ts";
import { buildSample, runBuild } from "../helpers/build.ts";
import { tempDir } from "../helpers/paths.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

test("a failure while Astro bundles fails the build, names the cause and leaves DIST_DIR as it was", async () => {
  const dist = await buildSample();
  const manifestBefore = await readFile(join(dist, MANIFEST_FILE));
  // The content is valid, so Astro starts; writing the analysis cache then fails (its folder is a file).
  const notAFolder = join(await tempDir("cache"), "cache");
  await writeFile(notAFolder, "not a folder");
  const run = await runBuild({ CONTENT_DIR: SAMPLE_CONTENT, DIST_DIR: dist, BUILD_CACHE_DIR: notAFolder });
  assert.equal(run.code, 1, run.stdout);
  assert.match(run.stderr, new RegExp(notAFolder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  assert.equal(run.stderr.trim().split("\n").length, 1, `one line of error:\n${run.stderr}`);
  assert.ok((await readFile(join(dist, MANIFEST_FILE))).equals(manifestBefore), "the previous build stays");
  assert.deepEqual(await readdir(dirname(dist)), ["dist"], "no temporary or old folder left beside DIST_DIR");
});
