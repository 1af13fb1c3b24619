// The hub store's failing operations (full disk, database down), for /readyz and the logs: recorded when an
// operation fails, cleared when any store operation succeeds again (the store is back).
export interface StoreHealth {
  fail(key: string, message: string): void;
  /** Any store operation succeeded: the store is back, every recorded failure is cleared. */
  ok(): void;
  problems(): string[];
}

export function createStoreHealth(): StoreHealth {
  const failing = new Map<string, string>();
  return {
    fail: (key, message) => void failing.set(key, message),
    ok: () => failing.clear(),
    problems: () => [...failing.values()],
  };
}
