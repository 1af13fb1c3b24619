// A new build landing in DIST_DIR is served without a restart, and no response mixes builds.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { rm } from "node:fs/promises";
import { after, before, test } from "node:test";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { buildSample, contentFixture, runBuild } from "../helpers/build.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";
import { until } from "../helpers/until.ts";

let dist: string;
let sidecar: RunningSidecar;

before(async () => {
  dist = await buildSample();
  sidecar = await startTestSidecar(dist);
});
after(() => sidecar.close());

test("the sidecar refuses a dist/ built for another BASE_URL, saying what to do", async () => {
  await assert.rejects(startTestSidecar(dist, { BASE_URL: "https://reviews.example.com" }), (e: Error) => {
    assert.match(e.message, /built for BASE_URL=http:\/\/localhost:4321/);
    assert.match(e.message, /Rebuild/);
    return true;
  });
});

test("a rebuild is served without a restart, and every response during the switch is whole", async () => {
  const before1 = await fetch(`${sidecar.url}/reviews.json`);
  const oldEtag = before1.headers.get("etag");
  await before1.arrayBuffer();
  const content = await contentFixture({
    "reviews/2026/zz-newest.json": {
      rating: 5,
      date: "2026-11-20",
      text: "Brand new review after the rebuild.",
      author: "Nova R.",
      verified: true,
    },
  });
  let stop = false;
  const seen = new Set<string>();
  const poller = (async () => {
    while (!stop) {
      const res = await fetch(`${sidecar.url}/reviews.json`, { headers: { "Accept-Encoding": "identity" } });
      const body = Buffer.from(await res.arrayBuffer());
      assert.equal(res.status, 200);
      const etag = res.headers.get("etag") as string;
      assert.equal(etag, `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`, "ETag matches the bytes");
      JSON.parse(body.toString("utf8"));
      seen.add(etag);
    }
  })();
  try {
    const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist });
    assert.equal(run.code, 0, run.stderr);
    // The sidecar watches DIST_DIR and switches once the build has landed: how soon depends on the machine.
    await until("the new build to be served", async () => {
      const body = await (await fetch(`${sidecar.url}/api/reviews/search?limit=1`)).json();
      return body.reviews[0]?.id === "zz-newest";
    });
    const after1 = await fetch(`${sidecar.url}/reviews.json`);
    assert.notEqual(after1.headers.get("etag"), oldEtag);
    await after1.arrayBuffer();
  } finally {
    stop = true;
    await poller;
    await rm(content, { recursive: true, force: true });
  }
  assert.ok(seen.size >= 1 && seen.size <= 2, `saw ${seen.size} versions`);
});
