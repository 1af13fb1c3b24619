// Ended legacy sessions (DELETE or expiry). Session ids are verified by signature on any instance, so an
// ended id must be refused everywhere: with several instances this store is shared (PostgreSQL, when
// DATABASE_URL is set, implements the same interface); alone, the in-memory one is enough.

export interface RevocationStore {
  /** Whether the session id was ended on any instance. */
  isRevoked(id: string): Promise<boolean>;
  /** Records an ended id; it may be forgotten after `until` (ms since epoch), when the id expires anyway. */
  revoke(id: string, until: number): Promise<void>;
  close(): Promise<void>;
}

/** At most `max` ids are remembered (oldest forgotten first), and none past its `until`. */
export function memoryRevocationStore(max = 100_000): RevocationStore {
  const revoked = new Map<string, number>();
  const sweep = () => {
    const now = Date.now();
    for (const [id, until] of revoked) if (until <= now) revoked.delete(id);
  };
  const timer = setInterval(sweep, 60_000);
  timer.unref();
  return {
    async isRevoked(id) {
      const until = revoked.get(id);
      return until !== undefined && until > Date.now();
    },
    async revoke(id, until) {
      revoked.delete(id);
      revoked.set(id, until);
      if (revoked.size > max) revoked.delete(revoked.keys().next().value as string);
    },
    async close() {
      clearInterval(timer);
    },
  };
}
