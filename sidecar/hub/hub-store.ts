// The hub's state behind one asynchronous interface with two implementations: node:sqlite in DATA_DIR (one
// instance, no set-up) and PostgreSQL (DATABASE_URL: several instances share it). Both pass the same contract
// tests (tests/integration/hub-store-contract.test.ts). Times are milliseconds since the epoch.
import type { HubRequest } from "./hub-request.ts";

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
  /** The topic content this delivery was enqueued for (null: whatever is current). */
  sha256: string | null;
  /** Bumped when a newer change is enqueued while this one is pending or in flight. */
  generation: number;
}

/** A subscribe or unsubscribe request stored before it is acknowledged, until its verification ran. */
export interface PendingVerification extends HubRequest {
  id: number;
  generation: number;
  /** Attempts that got no answer so far (a newer request for the same pair starts again at 0). */
  attempts: number;
}

export interface VerificationOutcome {
  p: PendingVerification;
  verified: boolean;
  /** Set when the callback gave no usable answer: the request stays pending, due then, one attempt counted. */
  retryAt?: number;
}

export interface VerificationLimits {
  /** Pending verifications at most, in all. */
  max: number;
  /** Pending verifications at most for one callback host. */
  maxPerHost: number;
}

export type AddPendingResult = { ok: true } | { ok: false; full: "all" | "host" };

export type FailureOutcome = { removed: true } | { removed: false; retryAt: number };

export interface HubStats {
  subscriptions: number;
  pendingDeliveries: number;
  pendingVerifications: number;
}

/** The two kinds of claimed work; each pump asks only about its own. */
export type DueKind = "deliveries" | "verifications";

export interface HubStore {
  readonly kind: "sqlite" | "postgres";
  /**
   * Stores a request for verification (a newer request for the same topic and callback replaces one that has
   * not run yet), unless the limits are reached.
   */
  addPending(req: HubRequest, host: string, now: number, limits: VerificationLimits): Promise<AddPendingResult>;
  /** Claims due verifications (hidden until `claimUntil`: a crash means they run again). */
  claimPending(now: number, claimUntil: number, limit: number): Promise<PendingVerification[]>;
  /** Applies a verified request (subscribe or unsubscribe) and drops it, in one transaction. */
  finishPending(p: PendingVerification, verified: boolean, now: number): Promise<void>;
  /** `finishPending` for several (or a retry for those with `retryAt`), in one transaction: all of them or none. */
  finishPendingBatch(items: readonly VerificationOutcome[], now: number): Promise<void>;
  /**
   * Records the topic's current content hash. When it differs from the recorded one, enqueues one delivery per
   * active subscriber and returns how many; the first record of a topic, or the same hash again (another
   * instance already recorded this change), enqueues nothing.
   */
  recordTopic(topic: string, sha256: string, now: number): Promise<number>;
  /** Claims due deliveries (hidden until `claimUntil`: a crash or a dead instance means a retry). */
  claimDue(now: number, claimUntil: number, limit: number): Promise<Delivery[]>;
  /** The earliest time something falls due: of one kind, or of either (deliveries and verifications). */
  nextDueAt(kind?: DueKind): Promise<number | undefined>;
  /** Puts a claimed delivery back, due at `at`, without counting a failure. */
  release(d: Delivery, at: number): Promise<void>;
  /** Drops an acknowledged delivery (kept, due now, when a newer change arrived meanwhile); resets failures. */
  delivered(d: Delivery, now: number): Promise<void>;
  /** `delivered` for several, in one transaction (one commit): all of them or none. */
  deliveredBatch(ds: readonly Delivery[], now: number): Promise<void>;
  failed(d: Delivery, now: number, retryDelaysMs: readonly number[], maxFailures: number): Promise<FailureOutcome>;
  /** Removes a subscription and its pending deliveries; true when there was one. */
  remove(topic: string, callback: string): Promise<boolean>;
  get(topic: string, callback: string): Promise<Subscription | undefined>;
  /** Copies a subscription as it is (migration between stores); false when it already existed. */
  importSubscription(s: Subscription, now: number): Promise<boolean>;
  /** Removes subscriptions whose lease has ended; returns how many. */
  sweepLapsed(now: number): Promise<number>;
  list(): Promise<(Subscription & { pending: number })[]>;
  stats(): Promise<HubStats>;
  /** Null when the store answers, else the reason (readiness). */
  ping(): Promise<string | null>;
  close(): Promise<void>;
}
