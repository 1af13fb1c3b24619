// The hub's state behind a small interface, so a PostgreSQL implementation can replace SQLite when the
// sidecar runs as several instances. Times are milliseconds since the epoch.

export interface Subscription {
  topic: string;
  callback: string;
  secret: string | null;
  leaseSeconds: number;
  expiresAt: number;
  failures: number;
  createdAt: number;
}

export interface Delivery {
  id: number;
  topic: string;
  callback: string;
  secret: string | null;
  expiresAt: number;
}

export type FailureOutcome = { removed: true } | { removed: false; retryAt: number };

export interface HubStore {
  /** Creates or replaces (lease, secret) a subscription once its intent is verified; resets failures. */
  upsert(s: { topic: string; callback: string; secret: string | null; leaseSeconds: number; now: number }): void;
  /** Removes a subscription and its pending deliveries; true when there was one. */
  remove(topic: string, callback: string): boolean;
  get(topic: string, callback: string): Subscription | undefined;
  /** Records one pending delivery per active subscriber of the topic; returns how many. */
  enqueue(topic: string, now: number): number;
  /** Claims due deliveries (hides them until `claimUntil`, so a crash mid-flight means a retry). */
  claimDue(now: number, claimUntil: number, limit: number): Delivery[];
  nextDueAt(): number | undefined;
  delivered(d: Delivery): void;
  failed(d: Delivery, now: number, retryDelaysMs: readonly number[], maxFailures: number): FailureOutcome;
  /** Removes subscriptions whose lease has ended; returns how many. */
  sweepLapsed(now: number): number;
  list(): (Subscription & { pending: number })[];
  close(): void;
}
