// The per-host limit learnt from answers (AIMD): slow start, one cut per round, bounds. Pure: no network.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createHostConcurrency } from "../../sidecar/hub/host-concurrency.ts";

const fast = { answered: true, ms: 5 } as const;
const overloaded = { answered: false } as const;

test("starts at the initial limit and doubles per round of fast answers until the first overload", () => {
  const c = createHostConcurrency({ initial: 8, max: 64, fastMs: 1_000 });
  assert.equal(c.limit("a.test"), 8);
  for (let i = 0; i < 8; i++) c.record("a.test", c.started("a.test"), fast);
  assert.equal(c.limit("a.test"), 16);
  assert.equal(c.limit("b.test"), 8, "each host learns on its own");
});

test("an overload halves the limit once per round; afterwards it grows by one per round", () => {
  const c = createHostConcurrency({ initial: 8, max: 64, fastMs: 1_000 });
  for (let i = 0; i < 8; i++) c.record("a.test", c.started("a.test"), fast);
  const rounds = Array.from({ length: 16 }, () => c.started("a.test"));
  for (const r of rounds) c.record("a.test", r, overloaded);
  assert.equal(c.limit("a.test"), 8, "sixteen failures of requests started together are one overload");
  for (let i = 0; i < 8; i++) c.record("a.test", c.started("a.test"), fast);
  assert.equal(c.limit("a.test"), 9, "congestion avoidance: one more per round");
  for (let i = 0; i < 10; i++) c.record("a.test", c.started("a.test"), overloaded);
  assert.equal(c.limit("a.test"), 1, "never below one");
});

test("slow answers hold the limit; it never exceeds the maximum", () => {
  const c = createHostConcurrency({ initial: 4, max: 6, fastMs: 100 });
  for (let i = 0; i < 50; i++) c.record("a.test", c.started("a.test"), { answered: true, ms: 500 });
  assert.equal(c.limit("a.test"), 4);
  for (let i = 0; i < 50; i++) c.record("a.test", c.started("a.test"), fast);
  assert.equal(c.limit("a.test"), 6);
});

test("remembers a bounded number of hosts, forgetting the least recently used", () => {
  const c = createHostConcurrency({ initial: 2, max: 10, fastMs: 100, maxHosts: 2 });
  for (const h of ["a", "b"]) for (let i = 0; i < 4; i++) c.record(h, c.started(h), fast);
  c.started("a");
  c.started("c");
  assert.equal(c.limit("a"), 6);
  assert.equal(c.limit("b"), 2, "b was forgotten");
});
