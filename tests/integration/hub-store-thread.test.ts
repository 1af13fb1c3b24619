// The embedded hub store in its worker thread: what the store refuses reaches the caller as an error with the
// store's own message (at open and per call), and a closed store refuses calls instead of hanging.
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { SCHEMA_VERSION } from "../../sidecar/hub/sqlite-hub-store.ts";
import { openSqliteHubThread } from "../../sidecar/hub/sqlite-hub-thread.ts";
import { tempDir } from "../helpers/paths.ts";

const T = "http://localhost:4321/feed.xml";

test("a database of a newer schema is refused at open, with the store's message", async () => {
  const path = join(await tempDir("hubthread"), "hub.sqlite");
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  await assert.rejects(openSqliteHubThread(path), /newer than this sidecar's/);
});

test("calls run side by side; an error inside a call rejects that call only; a closed store refuses", async () => {
  const store = await openSqliteHubThread(join(await tempDir("hubthread"), "hub.sqlite"));
  const [first, second] = await Promise.all([store.recordTopic(T, "h1", 1_000), store.recordTopic(T, "h2", 1_001)]);
  assert.deepEqual([first, second], [0, 0]);
  // NOT NULL: a request without a topic is refused by SQLite itself.
  const bad = { mode: "subscribe", topic: null, callback: "https://a.test/1", secret: null, leaseSeconds: 60 };
  await assert.rejects(
    store.addPending(bad as never, "a.test", 1_000, { max: 10, maxPerHost: 10 }),
    /NOT NULL|constraint/i,
  );
  assert.deepEqual(await store.stats(), { subscriptions: 0, pendingDeliveries: 0, pendingVerifications: 0 });
  assert.equal(await store.ping(), null);
  await store.close();
  await assert.rejects(store.stats(), /hub store's thread exited/);
  assert.match((await store.ping()) ?? "", /exited/);
});
