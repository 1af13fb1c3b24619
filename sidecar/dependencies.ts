// What an instance shares with the others and can fail without stopping reads (the hub's store, the database,
// the shared rate limits), checked for /readyz, /healthz and the metrics.

/** A dependency's check: null when it works, else the reason. */
export type DependencyCheck = () => Promise<string | null>;

export interface DependencyState {
  name: string;
  problem: string | null;
}

export interface Dependencies {
  /** Every dependency's state, checked at most once per `cacheMs` however many balancers poll. */
  check(): Promise<DependencyState[]>;
}

export function createDependencies(checks: Record<string, DependencyCheck>, cacheMs = 1_000): Dependencies {
  let last: { at: number; states: Promise<DependencyState[]> } | undefined;
  const run = () =>
    Promise.all(
      Object.entries(checks).map(async ([name, check]) => ({
        name,
        problem: await check().catch((e: Error) => e.message),
      })),
    );
  return {
    check() {
      if (!last || Date.now() - last.at > cacheMs) last = { at: Date.now(), states: run() };
      return last.states;
    },
  };
}
