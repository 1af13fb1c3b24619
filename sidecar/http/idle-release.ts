// After a load has passed, the process gives memory back: every IDLE_RELEASE_MS the caches of answers that nobody
// used for that long are emptied (src/domain/idle-release.ts) and, when any was and Node exposes it (the start
// scripts run node with --expose-gc), one full garbage collection frees what they held at once, instead of
// whenever V8 next needs room (with little allocation, that can be never). The collection takes tens of ms at 100k
// reviews, once per cache that went idle: it delays at most the requests that arrive during it.
import { releaseIdleCaches } from "../../src/domain/idle-release.ts";
import type { Logger } from "../logger.ts";

/** A cache unused for this long is emptied. */
export const IDLE_RELEASE_MS = 10_000;

/** Starts the sweep; returns its stop. */
export function releaseMemoryWhenIdle(logger: Logger, idleMs = IDLE_RELEASE_MS): () => void {
  const timer = setInterval(
    () => {
      const started = performance.now();
      const caches = releaseIdleCaches(idleMs, started);
      if (caches === 0) return;
      (globalThis as { gc?: () => void }).gc?.();
      logger.debug(
        { event: "memory.idle_release", caches, ms: Math.round(performance.now() - started) },
        "caches unused for a while emptied",
      );
    },
    Math.max(1, idleMs / 2),
  ).unref();
  return () => clearInterval(timer);
}
