// Runs rows claimed from the hub store (deliveries, verifications): claims no more than it can start soon (so a
// claim does not lapse while it waits in memory), bounded globally and per callback host (a limit each host
// earns by its answers: host-concurrency.ts), wakes when told, when the next row falls due, and every `pollMs`
// (other instances may have added work). A failing store is logged, reported and retried with a growing pause;
// it never throws out of the pump.
import PQueue from "p-queue";
import type { Logger } from "../logger.ts";
import { createHostConcurrency, type HostFeedback } from "./host-concurrency.ts";
import type { StoreHealth } from "./store-health.ts";

export interface ClaimPumpDeps<T> {
  name: string;
  claim(now: number, claimUntil: number, limit: number): Promise<T[]>;
  /** Runs one item; what its callback host's answer showed, when it asked one. */
  run(item: T): Promise<HostFeedback | undefined>;
  hostOf(item: T): string;
  nextDueAt(): Promise<number | undefined>;
  /** How long a claim hides a row: longer than one run can take. */
  claimMs: number;
  concurrency: number;
  /** Requests at once to one callback host to start with... */
  concurrencyPerHost: number;
  /** ...and at most, for a host that answers fast and without errors. */
  concurrencyPerHostMax: number;
  /** An answer within this long counts as fast. */
  fastAnswerMs: number;
  /** Look for work at least this often (several instances share the store); 0 = only when due. */
  pollMs: number;
  logger: Logger;
  health: StoreHealth;
}

export interface ClaimPump {
  wake(): void;
  /** Resolves when nothing is claimed or running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const MAX_ERROR_PAUSE_MS = 10_000;

export function createClaimPump<T>(deps: ClaimPumpDeps<T>): ClaimPump {
  const global = new PQueue({ concurrency: deps.concurrency });
  const perHost = new Map<string, PQueue>();
  const hostLimits = createHostConcurrency({
    initial: deps.concurrencyPerHost,
    max: Math.max(deps.concurrencyPerHost, deps.concurrencyPerHostMax),
    fastMs: deps.fastAnswerMs,
  });
  const capacity = deps.concurrency * 2;
  // Once busy, the pump claims in batches (one statement for many rows, not one per freed place): when a quarter
  // of its capacity is free, or at once when nothing it holds waits to start (a place would stay idle).
  const claimBatch = Math.max(1, Math.floor(capacity / 4));
  let inFlight = 0;
  let running = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let pumping: Promise<void> | undefined;
  let again = false;
  let errorPause = 0;
  const idleWaiters: (() => void)[] = [];

  const hostQueue = (host: string) => {
    let q = perHost.get(host);
    if (!q) {
      q = new PQueue({ concurrency: hostLimits.limit(host) });
      q.addEventListener("idle", () => perHost.delete(host));
      perHost.set(host, q);
    }
    return q;
  };

  const storeFailed = (what: string, e: unknown) => {
    errorPause = Math.min(MAX_ERROR_PAUSE_MS, Math.max(250, errorPause * 2));
    const message = `${deps.name}: ${what} failed: ${(e as Error).message}`;
    deps.health.fail(`${deps.name}.${what}`, message);
    deps.logger.error({ event: "hub.store_error", err: message, retry_ms: errorPause }, message);
  };

  function start(item: T) {
    inFlight++;
    const host = deps.hostOf(item);
    const q = hostQueue(host);
    void q
      .add(async () => {
        const round = hostLimits.started(host);
        const feedback = await global.add(async () => {
          running++;
          try {
            return await deps.run(item);
          } finally {
            running--;
          }
        });
        if (!feedback) return;
        hostLimits.record(host, round, feedback);
        q.concurrency = hostLimits.limit(host);
      })
      .catch((e) => deps.logger.error({ event: "hub.task_error", err: (e as Error).message }, `${deps.name} failed`))
      .finally(() => {
        inFlight--;
        if (inFlight === 0) for (const w of idleWaiters.splice(0)) w();
        wake();
      });
  }

  const canClaim = () => {
    const room = capacity - inFlight;
    return room >= claimBatch || (room > 0 && inFlight === running);
  };

  async function pump() {
    do {
      again = false;
      if (!canClaim()) return;
      const room = capacity - inFlight;
      const now = Date.now();
      let items: T[];
      try {
        items = await deps.claim(now, now + deps.claimMs, room);
        errorPause = 0;
      } catch (e) {
        storeFailed("claim", e);
        return;
      }
      if (closed) return;
      for (const item of items) start(item);
      if (items.length === room) again = true;
    } while (again && !closed);
  }

  async function schedule() {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    // Full enough: the next run to finish wakes the pump; a timer now would only poll the store in a loop.
    if (!canClaim()) return;
    let wait: number | undefined;
    if (errorPause) wait = errorPause;
    else {
      try {
        const next = await deps.nextDueAt();
        if (next !== undefined) wait = Math.max(0, next - Date.now()) + 5;
      } catch (e) {
        storeFailed("nextDueAt", e);
        wait = errorPause;
      }
    }
    if (deps.pollMs > 0) wait = Math.min(wait ?? deps.pollMs, deps.pollMs);
    if (wait === undefined || closed) return;
    timer = setTimeout(wake, wait);
    timer.unref();
  }

  function wake() {
    if (closed) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = pump()
      .then(schedule)
      .finally(() => {
        pumping = undefined;
      });
  }

  return {
    wake,
    async idle() {
      while (pumping || inFlight > 0) {
        if (pumping) await pumping;
        if (inFlight > 0) await new Promise<void>((r) => idleWaiters.push(r));
      }
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const q of perHost.values()) q.clear();
      await pumping;
      await global.onIdle();
    },
  };
}
