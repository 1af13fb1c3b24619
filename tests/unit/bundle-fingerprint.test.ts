// The fingerprint that decides whether a build may reuse the kept Astro bundle: any input Astro bundles changes it.
import assert from "node:assert/strict";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { bundleFingerprint } from "../../src/build/astro-bundle.ts";
import { tempDir } from "../helpers/paths.ts";

test("the fingerprint changes with every bundled input and nothing else", async () => {
  const root = await tempDir("root");
  for (const f of [
    "src/pages/index.astro",
    "sidecar/http/headers.ts",
    "public/favicon.svg",
    "content/reviews/a.json",
  ]) {
    await mkdir(join(root, f, ".."), { recursive: true });
    await writeFile(join(root, f), "x");
  }
  await writeFile(join(root, "package-lock.json"), "{}");
  const inputs = { root };
  const base = await bundleFingerprint(inputs);
  assert.equal(await bundleFingerprint(inputs), base, "stable");
  await writeFile(join(root, "content/reviews/a.json"), "changed");
  await writeFile(join(root, "README.md"), "new");
  assert.equal(await bundleFingerprint(inputs), base, "content and other files are not bundled");
  const changes: Array<[string, () => Promise<unknown>]> = [
    ["a page", () => writeFile(join(root, "src/pages/index.astro"), "y")],
    ["a new source file", () => writeFile(join(root, "src/components/New.astro"), "")],
    ["a sidecar module", () => writeFile(join(root, "sidecar/http/headers.ts"), "y")],
    ["public/", () => rm(join(root, "public/favicon.svg"))],
    ["the lock file", () => writeFile(join(root, "package-lock.json"), '{"v":2}')],
    ["astro.config.mjs", () => writeFile(join(root, "astro.config.mjs"), "")],
    [".env", () => writeFile(join(root, ".env"), "PUBLIC_X=1")],
  ];
  const seen = new Set([base]);
  for (const [what, change] of changes) {
    await mkdir(join(root, "src/components"), { recursive: true });
    await change();
    const next = await bundleFingerprint(inputs);
    assert.ok(!seen.has(next), `${what} changes the fingerprint`);
    seen.add(next);
  }
});
