// The delivery worker alone, on a real SQLite hub store (in memory) with a fake send function: no network. What
// is sent, retries on the configured delays, a change made while a delivery is in flight, a dead instance's claim
// taken over once it lapses, store failures, and the per-host limit keyed like the rest of the hub.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import type { CallbackClient, CallbackResponse } from "../../sidecar/hub/callback-client.ts";
import { createDeliveryWorker, signature, type TopicContent } from "../../sidecar/hub/delivery-worker.ts";
import { claimWindowMs } from "../../sidecar/hub/hub-limits.ts";
import type { HubStore } from "../../sidecar/hub/hub-store.ts";
import { openSqliteHubStore } from "../../sidecar/hub/sqlite-hub-store.ts";
import { createStoreHealth } from "../../sidecar/hub/store-health.ts";
import { until } from "../helpers/callback-server.ts";
import { memoryLogger } from "../helpers/hub-fixture.ts";

const TOPIC = "http://localhost:4321/feed.xml";
const HUB = "http://localhost:4321/api/websub/hub";
const TIMEOUT_MS = 50;

const content = (text: string): TopicContent => {
  const bytes = Buffer.from(text);
  return { bytes, type: "application/atom+xml", sha256: createHash("sha256").update(bytes).digest("hex") };
};

interface Sent {
  at: number;
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** A worker on a fresh in-memory store; `send` answers each POST (default 204). */
async function setup(
  opts: {
    send?: (s: Sent) => Promise<number> | number;
    retryDelaysMs?: number[];
    concurrency?: number;
    concurrencyPerHost?: number;
    concurrencyPerHostMax?: number;
    wrapStore?: (s: HubStore) => HubStore;
  } = {},
) {
  const real = openSqliteHubStore(":memory:");
  const store = opts.wrapStore ? opts.wrapStore(real) : real;
  const sent: Sent[] = [];
  const client: CallbackClient = {
    get: () => assert.fail("the delivery worker never GETs"),
    async post(url, body, headers): Promise<CallbackResponse> {
      const s = { at: Date.now(), url: url.href, body: body.toString(), headers };
      sent.push(s);
      return { status: await (opts.send ?? (() => 204))(s), body: "" };
    },
    close: async () => {},
  };
  const { logger, lines } = memoryLogger();
  const health = createStoreHealth();
  const current = { topic: content("v0") };
  const worker = createDeliveryWorker({
    store,
    client,
    logger,
    health,
    hubUrl: HUB,
    topicContent: (t) => (t === TOPIC ? current.topic : undefined),
    retryDelaysMs: opts.retryDelaysMs ?? [100, 300],
    timeoutMs: TIMEOUT_MS,
    concurrency: opts.concurrency,
    concurrencyPerHost: opts.concurrencyPerHost,
    concurrencyPerHostMax: opts.concurrencyPerHostMax,
  });
  await real.recordTopic(TOPIC, current.topic.sha256, Date.now());
  return {
    store: real,
    sent,
    lines,
    health,
    worker,
    async subscribe(callback: string, secret: string | null = null, leaseMs = 3_600_000) {
      const now = Date.now();
      const s = {
        topic: TOPIC,
        callback,
        secret,
        leaseSeconds: 3600,
        expiresAt: now + leaseMs,
        failures: 0,
        createdAt: now,
      };
      assert.ok(await real.importSubscription(s, now));
    },
    /** The build switches to new content: the store enqueues a delivery per subscriber. */
    async change(text: string) {
      current.topic = content(text);
      return real.recordTopic(TOPIC, current.topic.sha256, Date.now());
    },
    async close() {
      await worker.close();
      await real.close();
    },
  };
}

test("sends the current bytes with the hub's Link, the signature when there is a secret, then forgets the row", async () => {
  const hub = await setup();
  await hub.subscribe("https://a.test/plain");
  await hub.subscribe("https://b.test/signed", "s3cret");
  assert.equal(await hub.change("v1"), 2);
  hub.worker.wake();
  await until("two deliveries", () => hub.sent.length === 2);
  await hub.worker.idle();
  const byUrl = Object.fromEntries(hub.sent.map((s) => [s.url, s]));
  for (const s of hub.sent) {
    assert.equal(s.body, "v1");
    assert.equal(s.headers["Content-Type"], "application/atom+xml");
    assert.equal(s.headers.Link, `<${HUB}>; rel="hub", <${TOPIC}>; rel="self"`);
  }
  assert.equal(byUrl["https://a.test/plain"].headers["X-Hub-Signature"], undefined);
  assert.equal(byUrl["https://b.test/signed"].headers["X-Hub-Signature"], signature("s3cret", Buffer.from("v1")));
  assert.equal((await hub.store.stats()).pendingDeliveries, 0);
  await hub.close();
});

test("a failed delivery is retried after each configured delay and the subscription removed after three failures", async () => {
  const hub = await setup({ send: () => 500, retryDelaysMs: [100, 300] });
  await hub.subscribe("https://a.test/down");
  await hub.change("v1");
  hub.worker.wake();
  await until(
    "the subscription removed",
    async () => (await hub.store.get(TOPIC, "https://a.test/down")) === undefined,
  );
  assert.equal(hub.sent.length, 3);
  const gaps = hub.sent.slice(1).map((s, i) => s.at - hub.sent[i].at);
  // Timers never fire early, so these lower bounds hold however loaded the machine is.
  assert.ok(gaps[0] >= 100 && gaps[1] >= 300, `retried after ${gaps.join(", ")} ms`);
  assert.deepEqual(
    hub.lines.filter((l) => l.event === "hub.deliver").map((l) => l.outcome),
    ["retry", "retry", "removed"],
  );
  assert.equal((await hub.store.stats()).pendingDeliveries, 0);
  await hub.close();
});

test("a success after a failure clears the count; 410 removes the subscription at once", async () => {
  const answers = new Map([["https://a.test/flaky", [500, 200]]]);
  const hub = await setup({
    send: (s) => (s.url.includes("gone") ? 410 : (answers.get(s.url)?.shift() ?? 200)),
    retryDelaysMs: [50],
  });
  await hub.subscribe("https://a.test/flaky");
  await hub.subscribe("https://b.test/gone");
  await hub.change("v1");
  hub.worker.wake();
  await until("both settled", async () => (await hub.store.stats()).pendingDeliveries === 0);
  assert.equal((await hub.store.get(TOPIC, "https://a.test/flaky"))?.failures, 0);
  assert.equal(await hub.store.get(TOPIC, "https://b.test/gone"), undefined);
  assert.equal(hub.sent.filter((s) => s.url.includes("gone")).length, 1);
  await hub.close();
});

test("a change made while a delivery is in flight is delivered after it, with the newest bytes", async () => {
  let letGo: (() => void) | undefined;
  const hub = await setup({
    send: (s) => (s.body === "v1" ? new Promise<number>((r) => (letGo = () => r(200))) : 200),
  });
  await hub.subscribe("https://a.test/cb");
  await hub.change("v1");
  hub.worker.wake();
  await until("the first delivery in flight", () => letGo !== undefined);
  assert.equal(await hub.change("v2"), 1, "the pending row's generation is bumped, not a second row");
  hub.worker.wake();
  letGo?.();
  await until("the second delivery", () => hub.sent.length === 2);
  await hub.worker.idle();
  assert.deepEqual(
    hub.sent.map((s) => s.body),
    ["v1", "v2"],
  );
  assert.equal((await hub.store.stats()).pendingDeliveries, 0);
  await hub.close();
});

test("a dead instance's claim hides the row until it lapses; then another instance delivers it", async () => {
  const hub = await setup();
  await hub.subscribe("https://a.test/cb");
  await hub.change("v1");
  const claimedAt = Date.now();
  const dead = await hub.store.claimDue(claimedAt, claimedAt + claimWindowMs(TIMEOUT_MS), 10);
  assert.equal(dead.length, 1, "claimed by an instance that then dies");
  hub.worker.wake();
  await until("the delivery after the claim lapsed", () => hub.sent.length === 1);
  assert.ok(
    hub.sent[0].at - claimedAt >= claimWindowMs(TIMEOUT_MS),
    `delivered ${hub.sent[0].at - claimedAt} ms after the claim`,
  );
  await hub.worker.idle();
  assert.equal(hub.sent.length, 1);
  assert.equal((await hub.store.stats()).pendingDeliveries, 0);
  await hub.close();
});

test("content this instance has not loaded yet waits, then goes out once it has", async () => {
  const hub = await setup();
  await hub.subscribe("https://a.test/cb");
  await hub.change("v1");
  // Another instance recorded a newer build; this one still serves v1.
  const newer = content("v2");
  await hub.store.recordTopic(TOPIC, newer.sha256, Date.now());
  hub.worker.wake();
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(hub.sent.length, 0, "never sends bytes other than the ones enqueued");
  await hub.change("v2");
  await until("delivered once loaded", () => hub.sent.length === 1, 5_000);
  assert.equal(hub.sent[0].body, "v2");
  await hub.close();
});

test("a store that fails to record a delivery is reported; the claim lapses and the delivery runs again", async () => {
  let failDelivered = 1;
  const hub = await setup({
    wrapStore: (s) => ({
      ...s,
      kind: s.kind,
      async deliveredBatch(ds, now) {
        if (failDelivered-- > 0) throw new Error("database is locked");
        return s.deliveredBatch(ds, now);
      },
    }),
  });
  await hub.subscribe("https://a.test/cb");
  await hub.change("v1");
  hub.worker.wake();
  await until("the failure reported", () => hub.health.problems().length === 1);
  assert.match(hub.health.problems()[0], /delivery: recording delivered failed: database is locked/);
  await until("delivered again once the claim lapsed", () => hub.sent.length === 2, 10_000);
  assert.ok(hub.sent[1].at - hub.sent[0].at >= claimWindowMs(TIMEOUT_MS) - 5);
  await until("the row gone", async () => (await hub.store.stats()).pendingDeliveries === 0);
  assert.deepEqual(hub.health.problems(), [], "cleared once the store works again");
  await hub.close();
});

test("the per-host limit counts one host whatever its port, case or trailing dot", async () => {
  const running = new Map<string, number>();
  const most = new Map<string, number>();
  const hub = await setup({
    concurrency: 8,
    concurrencyPerHost: 1,
    concurrencyPerHostMax: 1,
    send: async (s) => {
      const host = new URL(s.url).hostname.replace(/\.$/, "");
      running.set(host, (running.get(host) ?? 0) + 1);
      most.set(host, Math.max(most.get(host) ?? 0, running.get(host) ?? 0));
      await new Promise((r) => setTimeout(r, 40));
      running.set(host, (running.get(host) ?? 1) - 1);
      return 204;
    },
  });
  for (const cb of [
    "https://a.test:8443/x",
    "https://A.test.:9443/y",
    "https://a.test/z",
    "https://b.test/1",
    "https://b.test:444/2",
  ]) {
    await hub.subscribe(cb);
  }
  await hub.change("v1");
  hub.worker.wake();
  await until("five deliveries", () => hub.sent.length === 5);
  await hub.worker.idle();
  assert.equal(most.get("a.test"), 1, "a.test:8443, A.test.:9443 and a.test are one host");
  assert.equal(most.get("b.test"), 1);
  await hub.close();
});
