// One contract, two hub stores: the same tests run against node:sqlite and PostgreSQL.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createPool, type Pool } from "../../sidecar/db/pool.ts";
import type { HubRequest } from "../../sidecar/hub/hub-request.ts";
import type { HubStore, PendingVerification } from "../../sidecar/hub/hub-store.ts";
import { migrateHubStore } from "../../sidecar/hub/migrate-hub.ts";
import { openPgHubStore } from "../../sidecar/hub/pg-hub-store.ts";
import { openSqliteHubStore } from "../../sidecar/hub/sqlite-hub-store.ts";
import { openSqliteWorkerStore } from "../../sidecar/hub/sqlite-worker-store.ts";
import { tempDir } from "../helpers/paths.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/pg.ts";

const T = "http://localhost:4321/feed.xml";
const LIMITS = { max: 100, maxPerHost: 10 };
const req = (callback: string, mode: HubRequest["mode"] = "subscribe", leaseSeconds = 600): HubRequest => ({
  mode,
  topic: T,
  callback,
  secret: "s3cret",
  leaseSeconds,
});

async function subscribe(store: HubStore, callback: string, now = 1_000) {
  assert.deepEqual(await store.addPending(req(callback), "a.test", now, LIMITS), { ok: true });
  const [p] = await store.claimPending(now, now + 5_000, 10);
  assert.equal(p.callback, callback);
  await store.finishPending(p, true, now);
}

const databases: TestDatabase[] = [];
const pools: Pool[] = [];
after(async () => {
  for (const p of pools) await p.end();
  for (const d of databases) await d.drop();
});

const implementations: [string, () => Promise<HubStore>][] = [
  ["sqlite", async () => openSqliteHubStore(join(await tempDir("hubstore"), "hub.sqlite"))],
  ["sqlite on its thread", async () => openSqliteWorkerStore(join(await tempDir("hubstore"), "hub.sqlite"))],
  [
    "postgres",
    async () => {
      const db = await createTestDatabase("hubstore");
      databases.push(db);
      const pool = createPool(db.url, 4);
      pools.push(pool);
      return openPgHubStore(pool);
    },
  ],
];

for (const [name, open] of implementations) {
  describe(`hub store contract: ${name}`, () => {
    test("a verified subscribe creates the subscription and drops the pending row", async () => {
      const store = await open();
      await subscribe(store, "https://a.test/1");
      const s = await store.get(T, "https://a.test/1");
      assert.equal(s?.secret, "s3cret");
      assert.equal(s?.expiresAt, 1_000 + 600_000);
      assert.deepEqual(await store.stats(), { subscriptions: 1, pendingDeliveries: 0, pendingVerifications: 0 });
      assert.equal(await store.ping(), null);
      await store.close();
    });

    test("an unverified request changes nothing; a verified unsubscribe removes", async () => {
      const store = await open();
      await subscribe(store, "https://a.test/1");
      await store.addPending(req("https://a.test/1", "unsubscribe"), "a.test", 2_000, LIMITS);
      let [p] = await store.claimPending(2_000, 9_000, 10);
      await store.finishPending(p, false, 2_000);
      assert.ok(await store.get(T, "https://a.test/1"));
      await store.addPending(req("https://a.test/1", "unsubscribe"), "a.test", 3_000, LIMITS);
      [p] = await store.claimPending(3_000, 9_000, 10);
      await store.finishPending(p, true, 3_000);
      assert.equal(await store.get(T, "https://a.test/1"), undefined);
      await store.close();
    });

    test("the verification queue is bounded in all and per host", async () => {
      const store = await open();
      const small = { max: 3, maxPerHost: 2 };
      assert.deepEqual(await store.addPending(req("https://a.test/1"), "a.test", 1, small), { ok: true });
      assert.deepEqual(await store.addPending(req("https://a.test/2"), "a.test", 1, small), { ok: true });
      assert.deepEqual(await store.addPending(req("https://a.test/3"), "a.test", 1, small), {
        ok: false,
        full: "host",
      });
      assert.deepEqual(await store.addPending(req("https://b.test/1"), "b.test", 1, small), { ok: true });
      assert.deepEqual(await store.addPending(req("https://c.test/1"), "c.test", 1, small), { ok: false, full: "all" });
      assert.deepEqual(
        await store.addPending(req("https://a.test/2"), "a.test", 1, small),
        { ok: true },
        "a replacement",
      );
      assert.equal((await store.stats()).pendingVerifications, 3);
      await store.close();
    });

    test("a claimed verification is hidden until its claim lapses, then claimed again (crash recovery)", async () => {
      const store = await open();
      await store.addPending(req("https://a.test/1"), "a.test", 1_000, LIMITS);
      assert.equal((await store.claimPending(1_000, 5_000, 10)).length, 1);
      assert.equal((await store.claimPending(4_999, 9_000, 10)).length, 0);
      assert.equal((await store.claimPending(5_000, 9_000, 10)).length, 1);
      await store.close();
    });

    test("a newer request replaces one in flight: the in-flight outcome does not drop it", async () => {
      const store = await open();
      await store.addPending(req("https://a.test/1"), "a.test", 1_000, LIMITS);
      const [first] = await store.claimPending(1_000, 5_000, 10);
      await store.addPending(req("https://a.test/1", "unsubscribe"), "a.test", 1_100, LIMITS);
      await store.finishPending(first, true, 1_200);
      const [second] = await store.claimPending(1_200, 5_000, 10);
      assert.equal(second?.mode, "unsubscribe");
      await store.close();
    });

    test("an unanswered verification waits for its retry with one attempt more; a newer request starts again at 0", async () => {
      const store = await open();
      await store.addPending(req("https://a.test/1"), "a.test", 1_000, LIMITS);
      await store.addPending(req("https://a.test/2"), "a.test", 1_000, LIMITS);
      const claimed = await store.claimPending(1_000, 5_000, 10);
      assert.deepEqual(
        claimed.map((p) => p.attempts),
        [0, 0],
      );
      const [one, two] = claimed;
      await store.finishPendingBatch(
        [
          { p: one, verified: false, retryAt: 3_000 },
          { p: two, verified: false, retryAt: 3_000 },
        ],
        1_100,
      );
      assert.equal(await store.get(T, "https://a.test/1"), undefined, "no subscription while it waits");
      assert.equal((await store.stats()).pendingVerifications, 2);
      assert.equal((await store.claimPending(2_999, 9_000, 10)).length, 0, "not due before its retry");
      assert.equal(await store.nextDueAt("verifications"), 3_000);
      const again = await store.claimPending(3_000, 9_000, 10);
      assert.deepEqual(
        again.map((p) => [p.callback, p.attempts]),
        [
          ["https://a.test/1", 1],
          ["https://a.test/2", 1],
        ],
      );
      // /1 is asked for anew while its retry is in flight: the retry's outcome leaves it due now, at 0 attempts.
      await store.addPending(req("https://a.test/1", "subscribe", 900), "a.test", 3_050, LIMITS);
      const [retried1, retried2] = again;
      await store.finishPendingBatch(
        [
          { p: retried1, verified: false, retryAt: 8_000 },
          { p: retried2, verified: true },
        ],
        3_100,
      );
      assert.ok(await store.get(T, "https://a.test/2"), "a retry that is answered subscribes");
      const [renewed] = await store.claimPending(3_100, 9_000, 10);
      assert.deepEqual([renewed?.callback, renewed?.attempts, renewed?.leaseSeconds], ["https://a.test/1", 0, 900]);
      await store.finishPendingBatch([{ p: renewed, verified: false }], 3_200);
      assert.equal((await store.stats()).pendingVerifications, 0, "a refusal after retries drops the row");
      await store.close();
    });

    test("a topic change is enqueued once per hash; the first record enqueues nothing", async () => {
      const store = await open();
      await subscribe(store, "https://a.test/1");
      await subscribe(store, "https://a.test/2");
      assert.equal(await store.recordTopic(T, "h1", 1_000), 0);
      assert.equal(await store.recordTopic(T, "h2", 1_001), 2);
      assert.equal(await store.recordTopic(T, "h2", 1_002), 0, "another instance loading the same build");
      assert.equal(await store.recordTopic(T, "h1", 1_003), 2, "a revert is a change: pending rows retargeted");
      assert.equal((await store.stats()).pendingDeliveries, 2, "not duplicated");
      const due = await store.claimDue(1_010, 9_000, 10);
      assert.equal(due.length, 2);
      assert.ok(due.every((d) => d.sha256 === "h1" && d.secret === "s3cret"));
      assert.equal((await store.claimDue(1_010, 9_000, 10)).length, 0, "claimed rows are hidden");
      await store.close();
    });

    test("delivered drops the row and resets failures; a change during flight keeps it due", async () => {
      const store = await open();
      await subscribe(store, "https://a.test/1");
      await store.recordTopic(T, "h1", 1_000);
      await store.recordTopic(T, "h2", 1_000);
      const [d] = await store.claimDue(1_000, 9_000, 10);
      await store.recordTopic(T, "h3", 1_500);
      await store.delivered(d, 2_000);
      const [again] = await store.claimDue(2_000, 9_000, 10);
      assert.equal(again?.sha256, "h3");
      await store.delivered(again, 2_100);
      assert.equal((await store.stats()).pendingDeliveries, 0);
      await store.close();
    });

    test("a batch of completions commits each as its single form would", async () => {
      const store = await open();
      for (const n of [1, 2, 3]) await subscribe(store, `https://a.test/${n}`);
      await store.recordTopic(T, "h1", 1_000);
      await store.recordTopic(T, "h2", 1_000);
      const due = await store.claimDue(1_000, 9_000, 10);
      assert.equal(due.length, 3);
      await store.deliveredBatch([due[1]], 1_050);
      // A failure before the batch: the batch resets it. A change while the batch was in flight keeps that row due.
      assert.deepEqual(await store.failed(due[0], 1_100, [0], 3), { removed: false, retryAt: 1_100 });
      const [again] = await store.claimDue(1_100, 9_000, 10);
      assert.equal(again.callback, "https://a.test/1");
      await store.recordTopic(T, "h3", 1_500);
      await store.deliveredBatch([again, due[2]], 2_000);
      assert.equal((await store.get(T, "https://a.test/1"))?.failures, 0);
      const left = await store.claimDue(2_000, 9_000, 10);
      assert.deepEqual(
        left.map((d) => [d.callback, d.sha256]).sort(),
        [1, 2, 3].map((n) => [`https://a.test/${n}`, "h3"]),
        "rows changed during flight stay due for the newest content; the one delivered before is enqueued anew",
      );
      await store.deliveredBatch(left, 2_100);
      assert.equal((await store.stats()).pendingDeliveries, 0);
      await store.deliveredBatch([], 2_200);

      // Verification outcomes: a subscribe, an unsubscribe and a refused one in one commit.
      await store.addPending(req("https://a.test/4"), "a.test", 3_000, LIMITS);
      await store.addPending(req("https://a.test/1", "unsubscribe"), "a.test", 3_000, LIMITS);
      await store.addPending(req("https://a.test/5"), "a.test", 3_000, LIMITS);
      const pending = await store.claimPending(3_000, 9_000, 10);
      assert.equal(pending.length, 3);
      const byCallback = new Map(pending.map((p) => [p.callback, p]));
      await store.finishPendingBatch(
        [
          { p: byCallback.get("https://a.test/4") as PendingVerification, verified: true },
          { p: byCallback.get("https://a.test/1") as PendingVerification, verified: true },
          { p: byCallback.get("https://a.test/5") as PendingVerification, verified: false },
        ],
        3_100,
      );
      assert.ok(await store.get(T, "https://a.test/4"));
      assert.equal(await store.get(T, "https://a.test/1"), undefined);
      assert.equal(await store.get(T, "https://a.test/5"), undefined);
      assert.equal((await store.stats()).pendingVerifications, 0);
      await store.finishPendingBatch([], 3_200);
      await store.close();
    });

    test("failures back off, the third removes; release does not count", async () => {
      const store = await open();
      await subscribe(store, "https://a.test/1");
      await store.recordTopic(T, "h1", 1_000);
      await store.recordTopic(T, "h2", 1_000);
      let [d] = await store.claimDue(1_000, 9_000, 10);
      await store.release(d, 1_100);
      [d] = await store.claimDue(1_100, 9_000, 10);
      assert.deepEqual(await store.failed(d, 1_200, [100, 500], 3), { removed: false, retryAt: 1_300 });
      assert.equal(await store.nextDueAt(), 1_300);
      [d] = await store.claimDue(1_300, 9_000, 10);
      assert.deepEqual(await store.failed(d, 1_400, [100, 500], 3), { removed: false, retryAt: 1_900 });
      [d] = await store.claimDue(1_900, 9_000, 10);
      assert.deepEqual(await store.failed(d, 2_000, [100, 500], 3), { removed: true });
      assert.equal(await store.get(T, "https://a.test/1"), undefined);
      assert.equal((await store.stats()).pendingDeliveries, 0);
      await store.close();
    });

    test("lapsed leases are swept; deliveries carry the lease end", async () => {
      const store = await open();
      await subscribe(store, "https://a.test/1", 0);
      assert.equal(await store.sweepLapsed(599_999), 0);
      assert.equal(await store.sweepLapsed(600_000), 1);
      assert.deepEqual(await store.list(), []);
      await store.close();
    });

    test("migration copies subscriptions with secrets, leases and failures, idempotently", async () => {
      const from = openSqliteHubStore(join(await tempDir("hubfrom"), "hub.sqlite"));
      await subscribe(from, "https://a.test/1");
      await subscribe(from, "https://a.test/2");
      await from.recordTopic(T, "h1", 1_000);
      await from.recordTopic(T, "h2", 1_000);
      const [d] = await from.claimDue(1_000, 2_000, 1);
      await from.failed(d, 1_000, [10], 3);
      const to = await open();
      assert.deepEqual(await migrateHubStore(from, to, 5_000), { copied: 2, existing: 0 });
      assert.deepEqual(await migrateHubStore(from, to, 5_000), { copied: 0, existing: 2 });
      const strip = (l: Awaited<ReturnType<HubStore["list"]>>) => l.map(({ pending: _, ...s }) => s);
      assert.deepEqual(strip(await to.list()), strip(await from.list()));
      assert.ok((await to.list()).some((s) => s.failures === 1));
      await from.close();
      await to.close();
    });
  });
}
