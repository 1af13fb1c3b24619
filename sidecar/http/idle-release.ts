// After a load has passed, the process gives memory back: every IDLE_RELEASE_MS the caches of answers that nobody
// used for that long are emptied (src/domain/idle-release.ts) and, when any was and Node exposes it (the start
// scripts run node with --expose-gc), one full garbage collection frees what they held at once, instead of
// whenever V8 next needs room (with little allocation, that can be never), and gives V8's spare pages back. The
// collection takes tens of ms at 100k reviews, once per spell of idleness: it delays at most the requests that
// arrive during it.
import { releaseIdleCaches } from "../../src/domain/idle-release.ts";
import type { Logger } from "../logger.ts";

/** A cache unused for this long is emptied. */
export const IDLE_RELEASE_MS = 10_000;

/** Starts the sweep; returns its stop. */
export function releaseMemoryWhenIdle(logger: Logger, idleMs = IDLE_RELEASE_MS): () => void {
  /** Caches were emptied while others were still in use: collect once they all are idle. */
  let pendingCollection = false;
  const timer = setInterval(
    () => {
      const started = performance.now();
      const { released: caches, allIdle } = releaseIdleCaches(idleMs, started);
      pendingCollection ||= caches > 0;
      // The collection only once the load has passed: while other caches are in use, requests are still coming.
      if (!pendingCollection || !allIdle) return;
      pendingCollection = false;
      // "last-resort": V8's most thorough collection, the one that also returns its pooled pages to the system.
      // A regular full collection keeps the pages the young generation and old space freed, which were most of
      // what the process held after a load beyond its live heap (about 50 MB at 100k reviews).
      (globalThis as { gc?: (o: object) => void }).gc?.({ type: "major", execution: "sync", flavor: "last-resort" });
      logger.debug(
        { event: "memory.idle_release", caches, ms: Math.round(performance.now() - started) },
        "caches unused for a while emptied",
      );
    },
    Math.max(1, idleMs / 2),
  ).unref();
  return () => clearInterval(timer);
}
