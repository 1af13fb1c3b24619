// boundedMemo: each input computed once while there is room, and computed every time once the memo is full.
import assert from "node:assert/strict";
import { test } from "node:test";
import { boundedMemo } from "../../src/domain/bounded-memo.ts";

/** toUpperCase through a memo of `max` inputs, and the inputs it was computed for. */
function countedUpper(max: number) {
  const calls: string[] = [];
  const upper = boundedMemo((s: string) => {
    calls.push(s);
    return s.toUpperCase();
  }, max);
  return { upper, calls };
}

test("boundedMemo answers as the function does, computing a kept input once", () => {
  const { upper, calls } = countedUpper(2);
  assert.deepEqual(["a", "b", "a", "b"].map(upper), ["A", "B", "A", "B"]);
  assert.deepEqual(calls, ["a", "b"]);
});

test("boundedMemo keeps no more than its bound: later inputs are computed each time", () => {
  const { upper, calls } = countedUpper(1);
  assert.deepEqual(["a", "c", "c", "a"].map(upper), ["A", "C", "C", "A"]);
  assert.deepEqual(calls, ["a", "c", "c"]);
});
