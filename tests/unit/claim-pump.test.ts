// The claim pump alone, over an in-memory queue of due items: it claims only what it can start soon, keeps the
// global and per-host limits, and backs off (and reports) when the store fails. No network, no database.
import assert from "node:assert/strict";
import { test } from "node:test";
import { type ClaimPumpDeps, createClaimPump } from "../../sidecar/hub/claim-pump.ts";
import { createStoreHealth } from "../../sidecar/hub/store-health.ts";
import { until } from "../helpers/callback-server.ts";
import { memoryLogger } from "../helpers/hub-fixture.ts";

interface Item {
  id: number;
  host: string;
}

/** Runs that wait until the test lets them finish; counts what runs at once, in all and per host. */
function gatedRuns() {
  const waiting: (() => void)[] = [];
  const running = new Map<string, number>();
  const max = { all: 0, perHost: new Map<string, number>() };
  let now = 0;
  const finished: number[] = [];
  return {
    max,
    finished,
    running: () => now,
    run: async (item: Item) => {
      now++;
      running.set(item.host, (running.get(item.host) ?? 0) + 1);
      max.all = Math.max(max.all, now);
      max.perHost.set(item.host, Math.max(max.perHost.get(item.host) ?? 0, running.get(item.host) ?? 0));
      await new Promise<void>((r) => waiting.push(r));
      now--;
      running.set(item.host, (running.get(item.host) ?? 1) - 1);
      finished.push(item.id);
      return undefined;
    },
    /** Lets the oldest waiting run finish. */
    releaseOne: () => waiting.shift()?.(),
    /** Lets every run finish, as they start, until `total` have. */
    async finishAll(total: number, check: () => void = () => {}) {
      while (finished.length < total) {
        for (const r of waiting.splice(0)) r();
        await new Promise((r) => setTimeout(r, 2));
        check();
      }
    },
  };
}

/** An in-memory store of due items; `claimed` counts what was handed out and not finished yet. */
function queue(items: Item[]) {
  const due = [...items];
  const limits: number[] = [];
  return {
    due,
    limits,
    claim: async (_now: number, _until: number, limit: number) => {
      limits.push(limit);
      return due.splice(0, limit);
    },
    nextDueAt: async () => (due.length ? Date.now() : undefined),
  };
}

function pump(deps: Partial<ClaimPumpDeps<Item>> & Pick<ClaimPumpDeps<Item>, "claim" | "run">) {
  const { logger, lines } = memoryLogger();
  const health = createStoreHealth();
  const p = createClaimPump<Item>({
    name: "delivery",
    hostOf: (i) => i.host,
    nextDueAt: async () => undefined,
    claimMs: 60_000,
    concurrency: 2,
    concurrencyPerHost: 10,
    pollMs: 0,
    logger,
    health,
    ...deps,
    concurrencyPerHostMax: deps.concurrencyPerHostMax ?? deps.concurrencyPerHost ?? 10,
    fastAnswerMs: deps.fastAnswerMs ?? 1_000,
  });
  return { p, lines, health };
}

const items = (n: number, host: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => ({ id: i, host: host(i) }));

test("claims no more than it can start soon (twice its concurrency), and claims again as runs finish", async () => {
  const runs = gatedRuns();
  const q = queue(items(20, (i) => `h${i}`));
  const { p } = pump({ claim: q.claim, run: runs.run, nextDueAt: q.nextDueAt, concurrency: 2 });
  p.wake();
  await until("two runs", () => runs.running() === 2);
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(q.limits, [4], "one claim, of twice the concurrency");
  assert.equal(q.due.length, 16, "the rest stays in the store for other instances");
  runs.releaseOne();
  await until("a claim for the freed place", () => q.limits.length === 2);
  assert.equal(q.limits[1], 1);
  assert.equal(q.due.length, 15);
  await runs.finishAll(20, () =>
    assert.ok(20 - q.due.length - runs.finished.length <= 4, "never more claimed than twice the concurrency"),
  );
  await p.idle();
  assert.equal(runs.max.all, 2);
  assert.ok(Math.max(...q.limits) <= 4);
  await p.close();
});

test("once busy, claims in batches of a quarter of its capacity, not one row per freed place", async () => {
  const runs = gatedRuns();
  const q = queue(items(40, (i) => `h${i}`));
  const { p } = pump({ claim: q.claim, run: runs.run, nextDueAt: q.nextDueAt, concurrency: 8 });
  p.wake();
  await until("eight runs", () => runs.running() === 8);
  // Each freed place is taken by a claimed row waiting in memory; the store is asked again once four are free.
  for (let done = 1; done <= 4; done++) {
    runs.releaseOne();
    await until(`${done} finished`, () => runs.finished.length === done && runs.running() === 8);
  }
  await until("a second claim", () => q.limits.length >= 2);
  assert.deepEqual(q.limits, [16, 4]);
  await runs.finishAll(40);
  await p.idle();
  assert.equal(runs.max.all, 8);
  await p.close();
});

test("keeps the global limit and the per-host limit", async () => {
  const runs = gatedRuns();
  const q = queue(items(24, (i) => (i % 2 ? "a.test" : "b.test")));
  const { p } = pump({ claim: q.claim, run: runs.run, nextDueAt: q.nextDueAt, concurrency: 8, concurrencyPerHost: 3 });
  p.wake();
  await until("three runs per host", () => runs.running() === 6);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(runs.running(), 6, "8 allowed in all, but only 3 per host");
  await runs.finishAll(24);
  await p.idle();
  assert.equal(runs.max.perHost.get("a.test"), 3);
  assert.equal(runs.max.perHost.get("b.test"), 3);
  await p.close();

  const global = gatedRuns();
  const many = queue(items(30, (i) => `host${i}`));
  const second = pump({ claim: many.claim, run: global.run, nextDueAt: many.nextDueAt, concurrency: 5 });
  second.p.wake();
  await until("five runs", () => global.running() === 5);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(global.running(), 5, "30 hosts, at most 5 at once");
  await global.finishAll(30);
  await second.p.idle();
  assert.equal(global.max.all, 5);
  await second.p.close();
});

test("a host that answers fast gets more at once, up to the maximum; overloads cut it", async () => {
  let running = 0;
  let most = 0;
  let overload = false;
  const q = queue(items(400, () => "aggregator.test"));
  const run = async () => {
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, 1));
    running--;
    return overload ? ({ answered: false } as const) : ({ answered: true, ms: 1 } as const);
  };
  const { p } = pump({
    claim: q.claim,
    run,
    nextDueAt: q.nextDueAt,
    concurrency: 32,
    concurrencyPerHost: 2,
    concurrencyPerHostMax: 12,
  });
  p.wake();
  await p.idle();
  assert.equal(q.due.length, 0);
  assert.equal(most, 12, "from 2 at once up to the maximum of 12, never beyond");

  overload = true;
  most = 0;
  q.due.push(...items(200, () => "aggregator.test"));
  p.wake();
  await p.idle();
  overload = false;
  most = 0;
  q.due.push(...items(4, () => "aggregator.test"));
  p.wake();
  await p.idle();
  assert.ok(most <= 2, `after overloads the host gets little at once (${most})`);
  await p.close();
});

test("a failing store is reported and retried after a growing pause, then the work runs", async () => {
  const attempts: number[] = [];
  let failures = 3;
  const ran: number[] = [];
  const due = [{ id: 1, host: "a.test" }];
  const { p, lines, health } = pump({
    claim: async (_n, _u, limit) => {
      attempts.push(Date.now());
      if (failures-- > 0) throw new Error("disk I/O error");
      return due.splice(0, limit);
    },
    run: async (i) => {
      ran.push(i.id);
      return undefined;
    },
  });
  p.wake();
  await until("the work, after three failed claims", () => ran.length === 1, 10_000);
  const gaps = attempts.slice(1).map((t, i) => t - attempts[i]);
  // Timers never fire early: each pause is at least the one asked for (250, 500, 1000 ms), however loaded the machine.
  assert.ok(gaps[0] >= 249 && gaps[1] >= 499 && gaps[2] >= 999, `pauses ${gaps.join(", ")} ms`);
  const errors = lines.filter((l) => l.event === "hub.store_error");
  assert.deepEqual(
    errors.map((l) => l.retry_ms),
    [250, 500, 1000],
  );
  assert.match(String(errors[0].err), /delivery: claim failed: disk I\/O error/);
  assert.deepEqual(health.problems(), ["delivery: claim failed: disk I/O error"]);
  assert.deepEqual(ran, [1]);
  await p.close();
});

test("a failing nextDueAt is retried too, and the pump never throws", async () => {
  const claims: number[] = [];
  let nextFails = 1;
  const { p, lines } = pump({
    claim: async () => {
      claims.push(Date.now());
      return [];
    },
    run: async () => undefined,
    nextDueAt: async () => {
      if (nextFails-- > 0) throw new Error("connection refused");
      return undefined;
    },
  });
  p.wake();
  await until("a second claim after the pause", () => claims.length === 2);
  assert.ok(claims[1] - claims[0] >= 249, `retried after ${claims[1] - claims[0]} ms`);
  assert.equal(lines.filter((l) => l.event === "hub.store_error").length, 1);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(claims.length, 2, "nothing due: no polling once the store answers");
  await p.close();
});
