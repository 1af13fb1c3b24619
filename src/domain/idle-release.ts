// Caches that an idle process can drop: they only save work, so once nobody has used one for a while its memory
// is worth more to the machine than its hits. Each registers itself here and says when it was last used; the
// sidecar sweeps them now and then (sidecar/http/idle-release.ts). Idleness is the cache's own, not the server's:
// health probes keep arriving when every other client has gone.

interface Releasable {
  /** performance.now() when the cache was last read or written. */
  readonly lastUsed: number;
  /** Whether anything is kept (nothing to release otherwise). */
  readonly holding: boolean;
  /** Drops what is kept; the next use computes it again. */
  release(): void;
}

/** Weakly held: a cache that is gone (a replaced build's, a test's) does not stay for this registry. */
const releasables = new Set<WeakRef<Releasable>>();

export function releasableWhenIdle(x: Releasable): void {
  releasables.add(new WeakRef(x));
}

/**
 * Empties every registered cache that holds something and has not been used for `idleMs`: how many it emptied,
 * and whether every cache has gone unused that long (the load has passed, not just one kind of request).
 */
export function releaseIdleCaches(idleMs: number, now = performance.now()): { released: number; allIdle: boolean } {
  let released = 0;
  let allIdle = true;
  for (const ref of releasables) {
    const x = ref.deref();
    if (x === undefined) {
      releasables.delete(ref);
      continue;
    }
    if (now - x.lastUsed < idleMs) allIdle = false;
    else if (x.holding) {
      x.release();
      released++;
    }
  }
  return { released, allIdle };
}
