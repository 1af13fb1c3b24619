// The embedded hub store on its own thread: operations sent together share one transaction, yet one that fails
// undoes only its own writes; a file it cannot open is refused at open; the thread ends with close.
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { SCHEMA_VERSION } from "../../sidecar/hub/sqlite-hub-store.ts";
import { openSqliteWorkerStore } from "../../sidecar/hub/sqlite-worker-store.ts";
import { tempDir } from "../helpers/paths.ts";

const T = "http://localhost:4321/feed.xml";
const LIMITS = { max: 1_000, maxPerHost: 1_000 };
const req = (n: number) => ({
  mode: "subscribe" as const,
  topic: T,
  callback: `https://a.test/${n}`,
  secret: null,
  leaseSeconds: 600,
});

test("many operations at once are all applied, each answered on its own", async () => {
  const store = await openSqliteWorkerStore(join(await tempDir("hubthread"), "hub.sqlite"));
  try {
    const added = await Promise.all(
      Array.from({ length: 300 }, (_, i) => store.addPending(req(i), "a.test", 1, LIMITS)),
    );
    assert.ok(added.every((a) => a.ok));
    const claimed = await store.claimPending(1, 60_000, 1_000);
    assert.equal(claimed.length, 300);
    // An operation SQLite refuses (an id it cannot bind) amid good ones, in the same batch, fails alone.
    const results = await Promise.allSettled([
      store.finishPendingBatch(
        claimed.slice(0, 150).map((p) => ({ p, verified: true })),
        2,
      ),
      store.deliveredBatch([{ id: { not: "a number" }, generation: 0, topic: T, callback: "x" } as never], 2),
      store.finishPendingBatch(
        claimed.slice(150).map((p) => ({ p, verified: true })),
        2,
      ),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ["fulfilled", "rejected", "fulfilled"],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /parameter/);
    await assert.rejects(store.get(T, Symbol("x") as never), /could not be cloned/, "refused before it is sent");
    assert.deepEqual(await store.stats(), { subscriptions: 300, pendingDeliveries: 0, pendingVerifications: 0 });
    assert.equal(await store.ping(), null);
  } finally {
    await store.close();
  }
  await assert.rejects(store.stats(), /stopped/, "a closed store says so instead of hanging");
});

test("a file with a newer schema is refused at open, with the reason", async () => {
  const path = join(await tempDir("hubthread"), "hub.sqlite");
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  await assert.rejects(openSqliteWorkerStore(path), /newer than this sidecar/);
});
