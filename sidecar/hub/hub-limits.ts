// The hub's fixed limits (README "WebSub hub" documents each).

// The verification queue's size (503 when full; 429 when one callback host has its share) is configuration:
// HUB_VERIFY_QUEUE_MAX and HUB_VERIFY_QUEUE_MAX_PER_HOST.
/** Verification GETs at once: in all, per callback host to start with, and per host at most. */
export const VERIFY_CONCURRENCY = 32;
export const VERIFY_CONCURRENCY_PER_HOST = 8;
export const VERIFY_CONCURRENCY_PER_HOST_MAX = 32;
/** Deliveries at once: in all, per callback host to start with, and per host at most. */
export const DELIVERY_CONCURRENCY = 64;
export const DELIVERY_CONCURRENCY_PER_HOST = 8;
export const DELIVERY_CONCURRENCY_PER_HOST_MAX = 64;
/** A host whose answers come within this long, without errors, earns a higher limit (host-concurrency.ts). */
export const FAST_ANSWER_MS = 1_000;
/** With a shared database, how often an idle instance looks for work other instances enqueued. */
export const SHARED_POLL_MS = 1_000;
/** Pause before retrying to record a build switch the store refused (full disk, database down). */
export const RECORD_RETRY_MS = 1_000;
/** How long a claim hides a row: longer than one request can take (two timeouts plus a second), so only a crashed
 * or dead instance's claim lapses and is taken over. */
export const claimWindowMs = (timeoutMs: number) => 2 * timeoutMs + 1000;
/** Completions (deliveries acknowledged, verifications run) wait this long for others to share their commit... */
export const COMPLETION_LINGER_MS = 4;
/** ...or until this many wait; never more than one pump's concurrency, so a crash repeats at most one batch. */
export const COMPLETION_BATCH_MAX = 64;
