// Waiting for a condition, the only way tests wait: never a fixed sleep, which is too short on a busy machine and
// wasted on an idle one.

/** How often a condition is checked: often enough that a passing test returns at once, rarely enough to cost nothing. */
const POLL_MS = 25;

/**
 * Resolves to the first truthy value `check` returns, checking every few milliseconds; throws "timed out waiting
 * for WHAT" after `timeoutMs`. The bound is against a hang, never a speed check: on a machine busy with other test
 * files (or other work) a condition can take several times as long, so no bound is under 30 s.
 */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const end = Date.now() + Math.max(timeoutMs, 30_000);
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * Waits until `count()` reaches `target`, failing only when it stops moving for `stallMs` (at least 30 s): a
 * bound against a hang that does not depend on how fast the machine or its disk is, for work that advances in
 * steps (verifications, deliveries).
 */
export async function untilCount(
  what: string,
  count: () => number | Promise<number>,
  target: number,
  stallMs = 30_000,
): Promise<void> {
  let last = -1;
  let movedAt = Date.now();
  for (;;) {
    const n = await count();
    if (n >= target) return;
    if (n !== last) {
      last = n;
      movedAt = Date.now();
    } else if (Date.now() - movedAt > Math.max(stallMs, 30_000)) {
      throw new Error(`timed out waiting for ${what}: stuck at ${n} of ${target}`);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
