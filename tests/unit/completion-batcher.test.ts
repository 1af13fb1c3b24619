// Group commit of completions: one commit for the items that arrive together, one batch committing at a time,
// a failed commit fails only its own items. Pure: a fake commit function, no store.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createCompletionBatcher } from "../../sidecar/hub/completion-batcher.ts";

/** A commit function that records its batches and finishes each when the test says so. */
function gatedCommits() {
  const batches: number[][] = [];
  const gates: { resolve(): void; reject(e: Error): void }[] = [];
  return {
    batches,
    commit: (items: number[]) =>
      new Promise<void>((resolve, reject) => {
        batches.push(items);
        gates.push({ resolve, reject });
      }),
    open: () => gates.shift()?.resolve(),
    fail: (e: Error) => gates.shift()?.reject(e),
    waitBatches: async (n: number) => {
      while (batches.length < n) await new Promise((r) => setImmediate(r));
    },
  };
}

test("items that arrive within the linger share one commit; each add resolves once it is committed", async () => {
  const c = gatedCommits();
  const b = createCompletionBatcher<number>({ commit: c.commit, lingerMs: 5, max: 100 });
  let done = 0;
  const adds = [1, 2, 3].map((i) => b.add(i).then(() => done++));
  await c.waitBatches(1);
  assert.deepEqual(c.batches, [[1, 2, 3]]);
  assert.equal(done, 0, "nothing resolves before the commit");
  c.open();
  await Promise.all(adds);
  assert.equal(done, 3);
});

test("a full batch commits at once; what arrives while it commits forms the next, one commit at a time", async () => {
  const c = gatedCommits();
  const b = createCompletionBatcher<number>({ commit: c.commit, lingerMs: 60_000, max: 2 });
  const first = [b.add(1), b.add(2)];
  await c.waitBatches(1);
  const later = [b.add(3), b.add(4), b.add(5)];
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(c.batches.length, 1, "no second commit while the first runs");
  c.open();
  await Promise.all(first);
  await c.waitBatches(2);
  assert.deepEqual(c.batches[1], [3, 4], "the next batch takes up to max at once");
  c.open();
  const flushed = b.flush();
  await c.waitBatches(3);
  assert.deepEqual(c.batches[2], [5], "flush commits what waits without the linger");
  c.open();
  await flushed;
  await Promise.all(later);
});

test("a failed commit rejects its own items only; the next batch commits", async () => {
  const c = gatedCommits();
  const b = createCompletionBatcher<number>({ commit: c.commit, lingerMs: 1, max: 2 });
  const failed = [b.add(1), b.add(2)].map((p) =>
    p.then(
      () => "ok",
      (e: Error) => e.message,
    ),
  );
  await c.waitBatches(1);
  const next = b.add(3);
  c.fail(new Error("disk full"));
  assert.deepEqual(await Promise.all(failed), ["disk full", "disk full"]);
  await c.waitBatches(2);
  c.open();
  await next;
  assert.deepEqual(c.batches, [[1, 2], [3]]);
});
