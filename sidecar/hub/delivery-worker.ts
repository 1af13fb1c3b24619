// Fat pings: sends the topic's current bytes to each pending delivery, bounded globally and per callback
// host. Pending deliveries live in the store, so a restart, or another instance, resumes them (at-least-once).
import { createHmac } from "node:crypto";
import type { Logger } from "../logger.ts";
import type { CallbackClient } from "./callback-client.ts";
import { type ClaimPump, createClaimPump } from "./claim-pump.ts";
import { createCompletionBatcher } from "./completion-batcher.ts";
import { feedbackOf, type HostFeedback } from "./host-concurrency.ts";
import {
  COMPLETION_BATCH_MAX,
  COMPLETION_LINGER_MS,
  claimWindowMs,
  DELIVERY_CONCURRENCY,
  DELIVERY_CONCURRENCY_PER_HOST,
  DELIVERY_CONCURRENCY_PER_HOST_MAX,
  FAST_ANSWER_MS,
} from "./hub-limits.ts";
import type { HubMetrics } from "./hub-metrics.ts";
import { callbackHostKey } from "./hub-request.ts";
import type { Delivery, HubStore } from "./hub-store.ts";
import type { StoreHealth } from "./store-health.ts";

export const MAX_CONSECUTIVE_FAILURES = 3;
/** A delivery enqueued for content this instance has not loaded yet waits this long for it. */
const NOT_YET_LOADED_MS = 1_000;

export interface TopicContent {
  bytes: Buffer;
  type: string;
  sha256: string;
}

export interface DeliveryWorkerDeps {
  store: HubStore;
  client: CallbackClient;
  logger: Logger;
  health: StoreHealth;
  metrics?: HubMetrics;
  hubUrl: string;
  /** The current bytes of a topic URL, read at send time, so a retry always carries the newest content. */
  topicContent(topic: string): TopicContent | undefined;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  pollMs?: number;
  concurrency?: number;
  concurrencyPerHost?: number;
  concurrencyPerHostMax?: number;
}

export type DeliveryWorker = ClaimPump;

export function signature(secret: string, body: Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { store, logger } = deps;
  const acknowledged = createCompletionBatcher<Delivery>({
    commit: (ds) => store.deliveredBatch(ds, Date.now()),
    lingerMs: COMPLETION_LINGER_MS,
    max: COMPLETION_BATCH_MAX,
  });
  const write = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      deps.health.ok();
    } catch (e) {
      // The claim lapses and the delivery runs again: at-least-once, never lost, never a crash.
      const message = `delivery: recording ${what} failed: ${(e as Error).message}`;
      deps.health.fail(`delivery.${what}`, message);
      logger.error({ event: "hub.store_error", err: message }, message);
    }
  };

  async function deliverOne(d: Delivery): Promise<HostFeedback | undefined> {
    const now = Date.now();
    const log = { event: "hub.deliver", topic: d.topic, callback_host: new URL(d.callback).host };
    if (d.expiresAt <= now) {
      await write("lease end", () => store.remove(d.topic, d.callback));
      deps.metrics?.removed.inc({ reason: "lease_ended" });
      logger.info({ ...log, outcome: "lease_ended" }, "lease ended; not delivered");
      return undefined;
    }
    const content = deps.topicContent(d.topic);
    if (!content || (d.sha256 !== null && d.sha256 !== content.sha256)) {
      // Another instance enqueued a build this one has not switched to yet: let it (or us, a moment later) send.
      await write("release", () => store.release(d, Date.now() + NOT_YET_LOADED_MS));
      return undefined;
    }
    const headers: Record<string, string> = {
      "Content-Type": content.type,
      Link: `<${deps.hubUrl}>; rel="hub", <${d.topic}>; rel="self"`,
    };
    if (d.secret) headers["X-Hub-Signature"] = signature(d.secret, content.bytes);
    let status: number | undefined;
    let error: string | undefined;
    const started = performance.now();
    try {
      status = (await deps.client.post(new URL(d.callback), content.bytes, headers)).status;
    } catch (e) {
      error = (e as Error).message;
    }
    const feedback = feedbackOf(status, started);
    if (status !== undefined && status >= 200 && status < 300) {
      deps.metrics?.delivered.inc();
      await write("delivered", () => acknowledged.add(d));
      logger.debug({ ...log, status, outcome: "delivered" });
    } else if (status === 410) {
      deps.metrics?.removed.inc({ reason: "gone" });
      await write("gone", () => store.remove(d.topic, d.callback));
      logger.info({ ...log, status, outcome: "gone" }, "subscriber answered 410; subscription removed");
    } else {
      deps.metrics?.failed.inc();
      await write("failure", async () => {
        const outcome = await store.failed(d, Date.now(), deps.retryDelaysMs, MAX_CONSECUTIVE_FAILURES);
        if (outcome.removed) deps.metrics?.removed.inc({ reason: "failures" });
        logger.info({ ...log, status, err: error, outcome: outcome.removed ? "removed" : "retry" }, "delivery failed");
      });
    }
    return feedback;
  }

  return createClaimPump<Delivery>({
    name: "delivery",
    claim: (now, until, limit) => store.claimDue(now, until, limit),
    run: deliverOne,
    // The same key as the verification queue's and the rate limit's: one host whatever its port or spelling.
    hostOf: (d) => callbackHostKey(d.callback) ?? "",
    nextDueAt: () => store.nextDueAt("deliveries"),
    claimMs: claimWindowMs(deps.timeoutMs),
    concurrency: deps.concurrency ?? DELIVERY_CONCURRENCY,
    concurrencyPerHost: deps.concurrencyPerHost ?? DELIVERY_CONCURRENCY_PER_HOST,
    concurrencyPerHostMax: deps.concurrencyPerHostMax ?? DELIVERY_CONCURRENCY_PER_HOST_MAX,
    fastAnswerMs: FAST_ANSWER_MS,
    pollMs: deps.pollMs ?? 0,
    logger,
    health: deps.health,
  });
}
