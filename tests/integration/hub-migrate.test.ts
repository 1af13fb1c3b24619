// `npm run hub -- migrate --to postgres://…` moves an embedded hub to PostgreSQL; the subscribers keep
// being notified without subscribing again, and running it twice copies nothing new.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import pg from "pg";
import { CallbackServer, until } from "../helpers/callback-server.ts";
import { buildVariants, freshDist, hubEnv, hubRequest, subscriptions, TOPICS } from "../helpers/hub-fixture.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";
import { createTestDatabase } from "../helpers/pg.ts";
import { deploy, startSidecarProcess } from "../helpers/sidecar-process.ts";
import { makeTestPki } from "../helpers/tls.ts";

test("hub migrate copies the SQLite hub to PostgreSQL and the subscribers stay notified", async () => {
  const pki = await makeTestPki();
  const variants = await buildVariants();
  const dist = await freshDist(variants[0]);
  const dataDir = join(await tempDir("hubmigrate"), "data");
  const db = await createTestDatabase("migrate");
  const cb = await CallbackServer.start(pki);
  const env = hubEnv({ dist, dataDir, caFile: pki.caFile });
  const paths = ["/m/1", "/m/2", "/m/3"];
  try {
    const embedded = await startSidecarProcess(env);
    for (const p of paths) {
      const fields = { "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": cb.url(p) };
      assert.equal((await hubRequest(embedded.url, { ...fields, "hub.secret": `secret${p}` })).status, 202);
    }
    await until("3 verified", () => subscriptions(dataDir).length === 3, 20_000);
    assert.equal(await embedded.stop(), 0);

    const migrate = () =>
      spawnSync(process.execPath, [join(ROOT, "scripts/hub.ts"), "migrate", "--to", db.url], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir },
        encoding: "utf8",
      });
    const first = migrate();
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /Copied 3 subscription\(s\).*0 were already there/);
    const again = migrate();
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /Copied 0 subscription\(s\).*3 were already there/);

    const shared = await startSidecarProcess({ ...env, DATABASE_URL: db.url });
    try {
      // The start records the served build's topics; a deploy before that would be their first record.
      const recorded = new pg.Client(db.url);
      await recorded.connect();
      try {
        await until(
          "the served build's topics recorded",
          async () => (await recorded.query("SELECT 1 FROM hub_topic_state")).rowCount === 3,
        );
      } finally {
        await recorded.end();
      }
      await deploy(variants[1], dist);
      await until("all notified", () => paths.every((p) => cb.posts(p).length === 1), 20_000);
      for (const p of paths) {
        assert.match(String(cb.posts(p)[0].headers["x-hub-signature"]), /^sha256=[0-9a-f]{64}$/, "secret kept");
      }
      const list = spawnSync(process.execPath, [join(ROOT, "scripts/hub.ts"), "list", "--json"], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: db.url },
        encoding: "utf8",
      });
      assert.equal(list.status, 0, list.stderr);
      assert.equal((JSON.parse(list.stdout) as unknown[]).length, 3);
    } finally {
      await shared.stop();
    }
  } finally {
    await cb.close();
    await db.drop();
  }
});
