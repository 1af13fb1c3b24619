// Ended legacy sessions (DELETE or expiry). Session ids are verified by signature on any instance, so an
// ended id must be refused everywhere: with several instances this store is shared (PostgreSQL, when
// DATABASE_URL is set, implements the same interface); alone, the in-memory one is enough.

export interface RevocationStore {
  /**
   * Whether the session id was ended on any instance. `until`: when the id expires anyway (its issue time plus
   * the maximum age), as `revoke` was given it.
   */
  isRevoked(id: string, until: number): Promise<boolean>;
  /** Records an ended id; it may be forgotten after `until` (ms since epoch), when the id expires anyway. */
  revoke(id: string, until: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * At most `max` ids are remembered (oldest ended first forgotten), and none past its `until`. Forgetting fails
 * closed: once an ended id had to be forgotten before its `until`, every id expiring no later than it (issued no
 * later) counts as ended, so a forgotten id never comes back to life; a live session caught by that gets 404
 * and initializes again, as a client does for an expired one.
 */
export function memoryRevocationStore(max = 100_000): RevocationStore {
  const revoked = new Map<string, number>();
  let floor = 0;
  const sweep = () => {
    const now = Date.now();
    for (const [id, until] of revoked) if (until <= now) revoked.delete(id);
  };
  const timer = setInterval(sweep, 60_000);
  timer.unref();
  return {
    async isRevoked(id, until) {
      const ended = revoked.get(id);
      return (ended !== undefined && ended > Date.now()) || until <= floor;
    },
    async revoke(id, until) {
      revoked.delete(id);
      revoked.set(id, until);
      if (revoked.size <= max) return;
      const [oldest, oldestUntil] = revoked.entries().next().value as [string, number];
      revoked.delete(oldest);
      floor = Math.max(floor, oldestUntil);
    },
    async close() {
      clearInterval(timer);
    },
  };
}
