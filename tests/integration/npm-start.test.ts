// npm start end to end: builds when there is no build, serves, and a review saved into CONTENT_DIR is
// rebuilt, served and pushed to a verified WebSub subscriber; saves by rename (twice) are rebuilt too; then the
// subscriber unsubscribes. npm run serve -- --watch rebuilds a content folder newer than its build at once.
import assert from "node:assert/strict";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { contentFixture, runBuild } from "../helpers/build.ts";
import { CallbackServer, until } from "../helpers/callback-server.ts";
import { BASE, hubRequest, subscriptions, TOPICS } from "../helpers/hub-fixture.ts";
import { tempDir } from "../helpers/paths.ts";
import { startSidecarProcess } from "../helpers/sidecar-process.ts";
import { makeTestPki } from "../helpers/tls.ts";

test("subscribe, get verified, receive a fat ping after a content change rebuilt by npm start, unsubscribe", async () => {
  const pki = await makeTestPki();
  const cb = await CallbackServer.start(pki);
  const content = await contentFixture();
  const root = await tempDir("start");
  const dataDir = join(root, "data");
  const sidecar = await startSidecarProcess(
    {
      CONTENT_DIR: content,
      DIST_DIR: join(root, "dist"),
      DATA_DIR: dataDir,
      BASE_URL: BASE,
      NODE_EXTRA_CA_CERTS: pki.caFile,
      HUB_CALLBACK_ALLOWLIST: "127.0.0.0/8",
      HUB_TIMEOUT_MS: "2000",
    },
    "sidecar/start.ts",
  );
  try {
    assert.equal((await fetch(`${sidecar.url}/reviews.json`)).status, 200, "npm start built the site before serving");
    const r = await hubRequest(sidecar.url, {
      "hub.mode": "subscribe",
      "hub.topic": TOPICS.json,
      "hub.callback": cb.url("/me"),
    });
    assert.equal(r.status, 202);
    await until("verified", () => subscriptions(dataDir).length === 1);

    await writeFile(
      join(content, "reviews", "2026", "2026-11-21-fresh-review.json"),
      JSON.stringify({
        rating: 5,
        date: "2026-11-21",
        text: "Jake fixed the furnace the same day. Great!",
        author: "Fresh R.",
        verified: true,
      }),
    );
    const ping = await until("the fat ping", () => cb.posts("/me")[0], 60_000);
    const feed = JSON.parse(ping.body.toString("utf8"));
    assert.equal(feed.items[0].id, "http://localhost:4321/#review-2026-11-21-fresh-review");
    const search = await (await fetch(`${sidecar.url}/api/reviews/search?limit=1`)).json();
    assert.equal(search.reviews[0].id, "2026-11-21-fresh-review");

    // Saved by rename (an editor's atomic save, sed -i), twice: each save is rebuilt and served.
    const fresh = join(content, "reviews", "2026", "2026-11-21-fresh-review.json");
    for (const word of ["Superb", "Excellent"]) {
      const tmp = `${fresh}.tmp`;
      await writeFile(
        tmp,
        JSON.stringify({ ...JSON.parse(await readFile(fresh, "utf8")), text: `${word} furnace fix.` }),
      );
      await rename(tmp, fresh);
      await until(
        `the rename save with "${word}" served`,
        async () => {
          const r = await (await fetch(`${sidecar.url}/api/reviews/search?limit=1`)).json();
          return r.reviews[0].text === `${word} furnace fix.`;
        },
        60_000,
      );
    }

    await hubRequest(sidecar.url, {
      "hub.mode": "unsubscribe",
      "hub.topic": TOPICS.json,
      "hub.callback": cb.url("/me"),
    });
    await until("unsubscribed", () => subscriptions(dataDir).length === 0);
  } finally {
    await sidecar.stop();
    await cb.close();
  }
});

test("npm run serve -- --watch serves the build it finds, and rebuilds at once when the content is newer", async () => {
  const content = await contentFixture();
  const root = await tempDir("serve-watch");
  const dist = join(root, "dist");
  assert.equal((await runBuild({ CONTENT_DIR: content, DIST_DIR: dist, BASE_URL: BASE })).code, 0);
  await writeFile(
    join(content, "reviews", "2026", "2026-11-25-after-build.json"),
    JSON.stringify({
      rating: 5,
      date: "2026-11-25",
      text: "Written after the build.",
      author: "Uma K.",
      verified: true,
    }),
  );
  const sidecar = await startSidecarProcess(
    { CONTENT_DIR: content, DIST_DIR: dist, DATA_DIR: join(root, "data"), BASE_URL: BASE },
    "sidecar/server.ts",
    ["--watch"],
  );
  try {
    assert.equal((await fetch(`${sidecar.url}/reviews.json`)).status, 200, "the build found is served meanwhile");
    await until(
      "the review written before the start, built and served",
      async () =>
        (await (await fetch(`${sidecar.url}/api/reviews/search?limit=1`)).json()).reviews[0].id ===
        "2026-11-25-after-build",
      60_000,
    );
  } finally {
    await sidecar.stop();
  }
});
