// Caches unused for a while are emptied by the sweep (src/domain/idle-release.ts); a cache in use is kept, and an
// emptied one fills again on its next use.
import assert from "node:assert/strict";
import { test } from "node:test";
import { releaseIdleCaches } from "../../src/domain/idle-release.ts";
import { PerBuildCache } from "../../src/domain/per-build-cache.ts";

test("a per-build cache unused for the idle time is emptied; one used since is kept", () => {
  const build = {};
  const idle = new PerBuildCache<string>(100, (v) => v.length);
  const busy = new PerBuildCache<string>(100, (v) => v.length);
  idle.of(build).set("a", "answer a");
  busy.of(build).set("b", "answer b");
  // Used after `idle` (performance.now() moves on between the two).
  do busy.of(build).get("b");
  while (busy.lastUsed <= idle.lastUsed);
  // 10 s after `idle` was last used: `busy` was used less than 10 s before then.
  const now = idle.lastUsed + 10_000;
  const released = releaseIdleCaches(10_000, now);
  assert.ok(released.released >= 1);
  assert.equal(released.allIdle, false, "a cache was used within the idle time");
  assert.equal(idle.of(build).get("a"), undefined, "the idle cache was emptied");
  assert.equal(busy.of(build).get("b"), "answer b", "the cache in use was kept");
  assert.equal(
    idle.getOrCompute(build, "a", () => "again"),
    "again",
  );
  assert.equal(idle.of(build).get("a"), "again", "an emptied cache fills again");
});

test("a cache that holds nothing is not counted as released", () => {
  const empty = new PerBuildCache<string>(100, (v) => v.length);
  empty.of({}).get("x");
  releaseIdleCaches(0, empty.lastUsed + 1);
  const again = releaseIdleCaches(0, empty.lastUsed + 1);
  assert.equal(again.released, 0, "nothing left to release");
  assert.equal(again.allIdle, true);
});
