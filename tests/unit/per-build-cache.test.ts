// The sidecar's per-build answer cache: separate per build, least recently used evicted within the budget,
// an answer larger than an eighth of the budget never kept, the most recently used listed first.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Snapshot } from "../../sidecar/build-store/snapshot.ts";
import { PerBuildCache } from "../../src/domain/per-build-cache.ts";

const build = () => ({}) as Snapshot;

test("entries belong to one build", () => {
  const cache = new PerBuildCache<string>(100, (v) => v.length);
  const a = build();
  const b = build();
  cache.of(a).set("k", "from a");
  assert.equal(cache.of(a).get("k"), "from a");
  assert.equal(cache.of(b).get("k"), undefined);
});

test("the least recently used entry goes first when the budget is exceeded", () => {
  const cache = new PerBuildCache<string>(80, (v) => v.length);
  const s = cache.of(build());
  s.set("one", "x".repeat(10));
  s.set("two", "y".repeat(10));
  assert.ok(s.get("one")); // "one" is now more recent than "two"
  for (let i = 0; i < 7; i++) s.set(`n${i}`, "z".repeat(10)); // 90 units: one entry over
  assert.equal(s.get("two"), undefined);
  assert.equal(s.get("one"), "x".repeat(10));
  assert.equal(s.get("n6"), "z".repeat(10));
});

test("an answer over an eighth of the budget is computed but not kept", () => {
  const cache = new PerBuildCache<string>(80, (v) => v.length);
  const snap = build();
  let computed = 0;
  const big = () => {
    computed++;
    return "b".repeat(11);
  };
  cache.getOrCompute(snap, "big", big);
  cache.getOrCompute(snap, "big", big);
  assert.equal(computed, 2);
  let small = 0;
  cache.getOrCompute(snap, "small", () => `${small++}`);
  cache.getOrCompute(snap, "small", () => `${small++}`);
  assert.equal(small, 1);
});

test("recent lists a build's values most recently used first, at most as many as asked", () => {
  const cache = new PerBuildCache<string>(100, () => 1);
  const snap = build();
  const s = cache.of(snap);
  for (const k of ["a", "b", "c", "d"]) s.set(k, k);
  s.get("b");
  assert.deepEqual(cache.recent(snap, 3), ["b", "d", "c"]);
  assert.deepEqual(cache.recent(snap, 10), ["b", "d", "c", "a"]);
  assert.deepEqual(cache.recent(build(), 3), []);
});
