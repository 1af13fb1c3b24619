// Build switches -> the store: each topic's content hash is recorded (which enqueues the deliveries of a
// change, once across instances). A hash the store refuses (full disk, database down) is kept and retried
// until the store takes it, so a switch during an outage still notifies once the store recovers.
import type { Logger } from "../logger.ts";
import type { HubStore } from "./hub-store.ts";
import type { StoreHealth } from "./store-health.ts";

export interface TopicRecorder {
  /** Topic URL -> its current content hash. */
  note(hashes: Iterable<[string, string]>): void;
  /** Resolves when nothing is being recorded right now. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function createTopicRecorder(deps: {
  store: HubStore;
  health: StoreHealth;
  logger: Logger;
  retryMs: number;
  /** Called after each round (deliveries may be due now). */
  recorded(): void;
}): TopicRecorder {
  const { store, health, logger } = deps;
  const unrecorded = new Map<string, string>();
  let retryTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;
  let again = false;
  let closed = false;

  async function round(): Promise<boolean> {
    let failed = false;
    for (const [topic, sha256] of [...unrecorded]) {
      try {
        const count = await store.recordTopic(topic, sha256, Date.now());
        if (unrecorded.get(topic) === sha256) unrecorded.delete(topic);
        health.ok();
        if (count) logger.info({ event: "hub.topic_changed", topic, deliveries: count }, "topic changed");
      } catch (e) {
        failed = true;
        const message = `hub: recording a change of ${topic} failed (will retry): ${(e as Error).message}`;
        health.fail(`topic ${topic}`, message);
        logger.error({ event: "hub.store_error", err: message }, message);
      }
    }
    deps.recorded();
    return failed;
  }

  function flush() {
    if (closed) return;
    if (flushing) {
      again = true;
      return;
    }
    flushing = (async () => {
      let failed: boolean;
      do {
        again = false;
        failed = await round();
      } while (again && !failed && !closed);
      if (unrecorded.size && !closed && !retryTimer) {
        retryTimer = setTimeout(() => {
          retryTimer = undefined;
          flush();
        }, deps.retryMs);
        retryTimer.unref();
      }
    })().finally(() => {
      flushing = undefined;
    });
  }

  return {
    note(hashes) {
      for (const [topic, sha256] of hashes) unrecorded.set(topic, sha256);
      flush();
    },
    async idle() {
      while (flushing) await flushing;
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await flushing;
    },
  };
}
