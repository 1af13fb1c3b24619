// The hub store's failing operations (full disk, database down), for /readyz and the logs: set when an
// operation fails, cleared when the same operation succeeds again.
export interface StoreHealth {
  fail(key: string, message: string): void;
  ok(key: string): void;
  problems(): string[];
}

export function createStoreHealth(): StoreHealth {
  const failing = new Map<string, string>();
  return {
    fail: (key, message) => void failing.set(key, message),
    ok: (key) => void failing.delete(key),
    problems: () => [...failing.values()],
  };
}
