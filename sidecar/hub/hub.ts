// The WebSub hub: requests -> verification of intent -> storage; build switches -> deliveries.
import { join } from "node:path";
import cron from "node-cron";
import PQueue from "p-queue";
import type { Config } from "../../src/config.ts";
import { feedUrls } from "../../src/domain/feeds/feed-items.ts";
import type { BuildStore, BuildSwitch } from "../build-store/build-store.ts";
import type { Logger } from "../logger.ts";
import { parseAllowlist } from "./address-guard.ts";
import { type CallbackClient, createCallbackClient } from "./callback-client.ts";
import { createDeliveryWorker, type DeliveryWorker } from "./delivery-worker.ts";
import { type HubRequest, type LeasePolicy, type ParsedHubRequest, parseHubRequest } from "./hub-request.ts";
import type { HubStore } from "./hub-store.ts";
import { openSqliteHubStore } from "./sqlite-hub-store.ts";
import { verifyIntent } from "./verify-intent.ts";

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
>;

export interface Hub {
  topics: readonly string[];
  /** Validates a request; when well-formed, verification of intent runs in the background. */
  accept(form: Record<string, unknown>): ParsedHubRequest;
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

export function createHub(deps: {
  config: HubConfig;
  builds: BuildStore;
  logger: Logger;
  store?: HubStore;
  client?: CallbackClient;
}): Hub {
  const { config, builds, logger } = deps;
  const topics = hubTopics(config.BASE_URL);
  const store = deps.store ?? openSqliteHubStore(hubStorePath(config));
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
  const verifications = new PQueue({ concurrency: 16 });
  const worker: DeliveryWorker = createDeliveryWorker({
    store,
    client,
    logger,
    hubUrl: feedUrls(config.BASE_URL).hub,
    retryDelaysMs: config.HUB_RETRY_DELAYS_MS,
    timeoutMs: config.HUB_TIMEOUT_MS,
    topicContent: (topic) => {
      const path = topics.get(topic);
      const file = path ? builds.current().files.get(path) : undefined;
      return file && { bytes: file.identity.bytes, type: file.type };
    },
  });

  builds.onSwitch(({ previous, next }: BuildSwitch) => {
    const now = Date.now();
    for (const [topic, path] of topics) {
      if (previous.files.get(path)?.identity.sha256 === next.files.get(path)?.identity.sha256) continue;
      const count = store.enqueue(topic, now);
      logger.info({ event: "hub.topic_changed", topic, deliveries: count }, "topic changed");
    }
    worker.wake();
  });

  const sweep = () => {
    const lapsed = store.sweepLapsed(Date.now());
    if (lapsed) logger.info({ event: "hub.leases_lapsed", count: lapsed });
  };
  const sweeper = cron.schedule("* * * * *", sweep, { noOverlap: true });
  sweep();
  worker.wake();

  return {
    topics: [...topics.keys()],
    accept(form) {
      const parsed = parseHubRequest(form, [...topics.keys()], lease);
      if (parsed.ok) {
        const request: HubRequest = parsed.request;
        void verifications.add(() => verifyIntent(request, { client, store, logger }));
      }
      return parsed;
    },
    async settled() {
      await verifications.onIdle();
      await worker.idle();
    },
    async close() {
      await sweeper.stop();
      verifications.clear();
      await verifications.onIdle();
      await worker.close();
      await client.close();
      store.close();
    },
  };
}
