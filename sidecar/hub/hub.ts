// The WebSub hub: requests -> stored pending verification -> verification of intent -> subscription; build
// switches -> stored deliveries -> delivery worker. Every store write is awaited and handled: a request is
// acknowledged only once stored, a failing store is logged, reported by /readyz and retried, never a crash.
import { join } from "node:path";
import cron from "node-cron";
import type { Config } from "../../src/config.ts";
import { feedUrls } from "../../src/domain/feeds/feed-items.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { Pool } from "../db/pool.ts";
import type { Logger } from "../logger.ts";
import { parseAllowlist } from "./address-guard.ts";
import { type CallbackClient, createCallbackClient } from "./callback-client.ts";
import { type ClaimPump, createClaimPump } from "./claim-pump.ts";
import { createCompletionBatcher } from "./completion-batcher.ts";
import { createDeliveryWorker } from "./delivery-worker.ts";
import * as limits from "./hub-limits.ts";
import type { HubMetrics } from "./hub-metrics.ts";
import { callbackHostKey, createHubRequestParser, type LeasePolicy } from "./hub-request.ts";
import type { HubStats, HubStore, PendingVerification, VerificationOutcome } from "./hub-store.ts";
import { openPgHubStore } from "./pg-hub-store.ts";
import { openSqliteWorkerStore } from "./sqlite-worker-store.ts";
import { createStoreHealth } from "./store-health.ts";
import { createTopicRecorder } from "./topic-recorder.ts";
import { verifyIntent, verifyRetryAt } from "./verify-intent.ts";

export type HubConfig = Pick<
  Config,
  | "BASE_URL"
  | "DATA_DIR"
  | "HUB_CALLBACK_ALLOWLIST"
  | "HUB_LEASE_DEFAULT_SECONDS"
  | "HUB_LEASE_MIN_SECONDS"
  | "HUB_LEASE_MAX_SECONDS"
  | "HUB_RETRY_DELAYS_MS"
  | "HUB_TIMEOUT_MS"
  | "HUB_VERIFY_QUEUE_MAX"
  | "HUB_VERIFY_QUEUE_MAX_PER_HOST"
  | "HUB_VERIFY_RETRY_DELAYS_MS"
>;

export interface HubAnswer {
  status: 202 | 400 | 429 | 503;
  message: string;
}

export interface Hub {
  topics: readonly string[];
  /** Validates a request and stores it; verification of intent runs in the background. */
  accept(form: Record<string, unknown>): Promise<HubAnswer>;
  /** Failing store operations, for /readyz (empty when all is well). */
  problems(): string[];
  stats(): Promise<HubStats>;
  /** Resolves when no verification or delivery is running or due now (tests and shutdown). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Topic URL -> path of the file in the build that is its content. */
export function hubTopics(baseUrl: string): Map<string, string> {
  const urls = feedUrls(baseUrl);
  return new Map([
    [urls.atom, "/feed.xml"],
    [urls.json, "/api/feed.json"],
    [urls.dataset, "/reviews.json"],
  ]);
}

export function hubStorePath(config: Pick<Config, "DATA_DIR">): string {
  return join(config.DATA_DIR, "hub.sqlite");
}

/** PostgreSQL when a pool is given (DATABASE_URL), else the embedded SQLite file in DATA_DIR, on its own thread. */
export async function openHubStore(config: Pick<Config, "DATA_DIR">, pool?: Pool): Promise<HubStore> {
  return pool ? openPgHubStore(pool) : openSqliteWorkerStore(hubStorePath(config));
}

export function createHub(deps: {
  config: HubConfig;
  builds: BuildStore;
  logger: Logger;
  store: HubStore;
  client?: CallbackClient;
  metrics?: HubMetrics;
}): Hub {
  const { config, builds, logger, store } = deps;
  const topics = hubTopics(config.BASE_URL);
  const health = createStoreHealth();
  const pollMs = store.kind === "postgres" ? limits.SHARED_POLL_MS : 0;
  const client =
    deps.client ??
    createCallbackClient({
      allowlist: parseAllowlist(config.HUB_CALLBACK_ALLOWLIST),
      timeoutMs: config.HUB_TIMEOUT_MS,
    });
  const lease: LeasePolicy = {
    defaultSeconds: config.HUB_LEASE_DEFAULT_SECONDS,
    minSeconds: config.HUB_LEASE_MIN_SECONDS,
    maxSeconds: config.HUB_LEASE_MAX_SECONDS,
  };
  const parseRequest = createHubRequestParser([...topics.keys()], lease);
  const topicContent = (topic: string) => {
    const path = topics.get(topic);
    const file = path ? builds.current().files.get(path) : undefined;
    // The bytes only when a delivery sends them (a large topic such as the dataset is read from disk then).
    return (
      file && {
        get bytes() {
          return file.identity.read();
        },
        type: file.type,
        sha256: file.identity.sha256,
      }
    );
  };
  const worker = createDeliveryWorker({
    store,
    client,
    logger,
    health,
    metrics: deps.metrics,
    hubUrl: feedUrls(config.BASE_URL).hub,
    topicContent,
    retryDelaysMs: config.HUB_RETRY_DELAYS_MS,
    timeoutMs: config.HUB_TIMEOUT_MS,
    pollMs,
    concurrency: limits.DELIVERY_CONCURRENCY,
    concurrencyPerHost: limits.DELIVERY_CONCURRENCY_PER_HOST,
    concurrencyPerHostMax: limits.DELIVERY_CONCURRENCY_PER_HOST_MAX,
  });
  const outcomes = createCompletionBatcher<VerificationOutcome>({
    commit: (items) => store.finishPendingBatch(items, Date.now()),
    lingerMs: limits.COMPLETION_LINGER_MS,
    max: limits.COMPLETION_BATCH_MAX,
  });
  const verifier: ClaimPump = createClaimPump<PendingVerification>({
    name: "verification",
    claim: (now, until, limit) => store.claimPending(now, until, limit),
    async run(p) {
      const { verified, retry, feedback } = await verifyIntent(p, { client, logger });
      const retryAt = retry ? verifyRetryAt(p.attempts, config.HUB_VERIFY_RETRY_DELAYS_MS, Date.now()) : undefined;
      if (retry) {
        const log = { event: "hub.verify_retry", mode: p.mode, topic: p.topic, attempt: p.attempts + 1 };
        if (retryAt === undefined) logger.info(log, "no answer to the verification; refused after the last attempt");
        else logger.info({ ...log, retry_in_ms: retryAt - Date.now() }, "no answer to the verification; retrying");
      }
      try {
        await outcomes.add({ p, verified, retryAt });
        health.ok();
      } catch (e) {
        // Left pending: the claim lapses and the verification runs again.
        const message = `verification: storing the outcome failed: ${(e as Error).message}`;
        health.fail("verification.finish", message);
        logger.error({ event: "hub.store_error", err: message }, message);
      }
      return feedback;
    },
    hostOf: (p) => callbackHostKey(p.callback) ?? "",
    nextDueAt: () => store.nextDueAt("verifications"),
    claimMs: limits.claimWindowMs(config.HUB_TIMEOUT_MS),
    concurrency: limits.VERIFY_CONCURRENCY,
    concurrencyPerHost: limits.VERIFY_CONCURRENCY_PER_HOST,
    concurrencyPerHostMax: limits.VERIFY_CONCURRENCY_PER_HOST_MAX,
    fastAnswerMs: limits.FAST_ANSWER_MS,
    pollMs,
    logger,
    health,
  });

  const recorder = createTopicRecorder({
    store,
    health,
    logger,
    retryMs: limits.RECORD_RETRY_MS,
    recorded: () => worker.wake(),
  });
  const noteBuild = () =>
    recorder.note(
      [...topics.keys()].flatMap((topic) => {
        const content = topicContent(topic);
        return content ? [[topic, content.sha256] as [string, string]] : [];
      }),
    );
  builds.onSwitch(noteBuild);

  const sweep = async () => {
    try {
      const lapsed = await store.sweepLapsed(Date.now());
      health.ok();
      if (lapsed) {
        deps.metrics?.removed.inc({ reason: "lease_ended" }, lapsed);
        logger.info({ event: "hub.leases_lapsed", count: lapsed });
      }
    } catch (e) {
      health.fail("sweep", `hub: sweeping lapsed leases failed: ${(e as Error).message}`);
      logger.error({ event: "hub.store_error", err: (e as Error).message }, "sweeping lapsed leases failed");
    }
  };
  const sweeper = cron.schedule("* * * * *", sweep, { noOverlap: true });
  void sweep();
  noteBuild();
  verifier.wake();

  return {
    topics: [...topics.keys()],
    async accept(form) {
      const parsed = parseRequest(form);
      if (!parsed.ok) return { status: 400, message: parsed.reason };
      const req = parsed.request;
      const host = callbackHostKey(req.callback) ?? "";
      try {
        const added = await store.addPending(req, host, Date.now(), {
          max: config.HUB_VERIFY_QUEUE_MAX,
          maxPerHost: config.HUB_VERIFY_QUEUE_MAX_PER_HOST,
        });
        health.ok();
        if (!added.ok) {
          return added.full === "host"
            ? { status: 429, message: `Too many verifications pending for ${host}; try again later.` }
            : { status: 503, message: "The hub's verification queue is full; try again later." };
        }
      } catch (e) {
        const message = `hub: storing a ${req.mode} request failed: ${(e as Error).message}`;
        health.fail("accept", message);
        logger.error({ event: "hub.store_error", err: message }, message);
        return { status: 503, message: "The hub cannot store requests right now; try again later." };
      }
      verifier.wake();
      return { status: 202, message: `Accepted: verification of intent for ${req.mode} will be sent to the callback.` };
    },
    problems: () => health.problems(),
    stats: () => store.stats(),
    async settled() {
      await recorder.idle();
      await verifier.idle();
      await worker.idle();
    },
    async close() {
      await sweeper.stop();
      await recorder.close();
      await verifier.close();
      await worker.close();
      await client.close();
      await store.close();
    },
  };
}
