// A build whose search index has another format version is refused by name: at start, and at a hot reload
// (the current build stays served).
import assert from "node:assert/strict";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { sha256Hex } from "../../src/domain/hash.ts";
import { MANIFEST_FILE } from "../../src/domain/schemas/manifest.ts";
import { INDEX_FILE, INDEX_VERSION } from "../../src/domain/search/index-format.ts";
import { buildSample } from "../helpers/build.ts";
import { until } from "../helpers/callback-server.ts";
import { tempDir } from "../helpers/paths.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";
import { deploy, type SidecarProcess, startSidecarProcess } from "../helpers/sidecar-process.ts";

let dist: string;
let otherVersion: string;

/** A copy of `from` whose index says version+1, with a manifest that hashes it (so only the version is wrong). */
async function withIndexVersion(from: string, version: number): Promise<string> {
  const out = join(await tempDir("dist-v"), "dist");
  await cp(from, out, { recursive: true });
  const index = await readFile(join(out, INDEX_FILE));
  index.writeUInt32LE(version, 4);
  await writeFile(join(out, INDEX_FILE), index);
  const manifest = JSON.parse(await readFile(join(out, MANIFEST_FILE), "utf8"));
  manifest.files[`/${INDEX_FILE}`].sha256 = sha256Hex(index);
  manifest.build_id = sha256Hex(`${manifest.build_id}-v${version}`).slice(0, 32);
  await writeFile(join(out, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
  return out;
}

before(async () => {
  dist = await buildSample();
  otherVersion = await withIndexVersion(dist, INDEX_VERSION + 1);
});

test("a sidecar does not start on an index of another version, and says which", async () => {
  await assert.rejects(startTestSidecar(otherVersion), (e: Error) => {
    assert.match(e.message, new RegExp(`${INDEX_FILE}: index format version ${INDEX_VERSION + 1}`));
    assert.match(e.message, new RegExp(`reads version ${INDEX_VERSION}`));
    assert.match(e.message, /npm run build/);
    return true;
  });
});

let sidecar: SidecarProcess | undefined;
after(() => sidecar?.stop());

test("a hot reload to an index of another version is refused and the current build stays served", async () => {
  const served = join(await tempDir("dist-served"), "dist");
  await cp(dist, served, { recursive: true });
  sidecar = await startSidecarProcess({ DIST_DIR: served, DATA_DIR: await tempDir("data") });
  const s = sidecar;
  const before1 = await fetch(`${s.url}/api/reviews/search?limit=1`);
  const body1 = await before1.text();
  await deploy(otherVersion, served);
  const refused = await until("the reload refused", () => s.logs.find((l) => l.event === "build.reload_failed"));
  assert.match(String(refused.err), new RegExp(`index format version ${INDEX_VERSION + 1}`));
  assert.equal(refused.level, 50, "logged as an error");
  assert.equal(s.logs.filter((l) => l.event === "build.switched").length, 0);
  assert.equal(await (await fetch(`${s.url}/api/reviews/search?limit=1`)).text(), body1);
});
