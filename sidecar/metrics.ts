// Prometheus metrics (prom-client): one registry per sidecar, the default process metrics (event-loop lag
// included), HTTP request durations labelled by route pattern (bounded: never a raw path), the build, and the
// hub. Other parts import the named metrics from here (e.g. `metrics.mcpRequests` for MCP methods).
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { MCP_METHODS } from "../src/domain/mcp-discovery.ts";
import type { BuildStatus } from "./build-health.ts";
import type { BuildStore } from "./build-store/build-store.ts";
import type { Dependencies } from "./dependencies.ts";
import type { HubMetrics } from "./hub/hub-metrics.ts";
import type { HubStats, HubStore } from "./hub/hub-store.ts";

const PREFIX = "reviews_";

export type HubStatsSource = Pick<HubStore, "stats">;

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status">;
  hub: HubMetrics;
  /** MCP JSON-RPC requests by method (the MCP route increments it). */
  mcpRequests: Counter<"method">;
  /** Reports the build that `store` serves (id, revision, age, reviews) and, when it builds, its rebuilds. */
  observeBuild(store: BuildStore, health?: BuildStatus): void;
  /** Reports each shared dependency (database, rate limits) as up (1) or down (0), checked at scrape time. */
  observeDependencies(dependencies: Dependencies): void;
  /** Reports the hub's subscriptions and pending work, read from its store at scrape time. */
  observeHub(source: HubStatsSource): void;
  /** Wraps the request listener to time every request. */
  instrument(listener: RequestListener): RequestListener;
}

const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

const STARTED = Symbol("started");
type Timed = ServerResponse & { [STARTED]: number };
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const ROUTE_LABEL = Symbol("routeLabel");
type Labelled = IncomingMessage & { [ROUTE_LABEL]?: string };

/** For handlers that answer outside Express's routes (the build's static files): the label to count under. */
export function setRouteLabel(req: IncomingMessage, label: string): void {
  (req as Labelled)[ROUTE_LABEL] = label;
}

/** The route label: the one a handler named, else Express's matched route pattern, else "unmatched". */
export function routeLabel(req: IncomingMessage): string {
  const named = (req as Labelled)[ROUTE_LABEL];
  if (named !== undefined) return named;
  const r = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  if (typeof r.route?.path === "string") return `${r.baseUrl ?? ""}${r.route.path}`;
  return "unmatched";
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  const httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "HTTP request duration by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  // One listener function for every response (no closure per request).
  function recordDuration(this: Timed): void {
    const method = this.req.method ?? "";
    httpDuration.observe(
      { method: KNOWN_METHODS.has(method) ? method : "other", route: routeLabel(this.req), status: this.statusCode },
      (performance.now() - this[STARTED]) / 1000,
    );
  }
  const hub: HubMetrics = {
    delivered: new Counter({
      name: `${PREFIX}hub_deliveries_delivered_total`,
      help: "Content notifications acknowledged with a 2xx",
      registers: [registry],
    }),
    failed: new Counter({
      name: `${PREFIX}hub_deliveries_failed_total`,
      help: "Content notifications that failed (non-2xx, timeout, connection error, redirect)",
      registers: [registry],
    }),
    removed: new Counter({
      name: `${PREFIX}hub_subscriptions_removed_total`,
      help: "Subscriptions removed by this instance, by reason (failures, gone, lease_ended)",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
  };
  const mcpRequests = new Counter({
    name: `${PREFIX}mcp_requests_total`,
    help: "MCP JSON-RPC requests by method",
    labelNames: ["method"] as const,
    registers: [registry],
  });
  return {
    registry,
    httpDuration,
    hub,
    mcpRequests,
    observeBuild(store, health) {
      let loadedAt = Date.now();
      store.onSwitch(() => {
        loadedAt = Date.now();
      });
      const info: Gauge<"build_id" | "content_revision"> = new Gauge({
        name: `${PREFIX}build_info`,
        help: "The build this instance serves (value 1, labelled with its build_id and content revision)",
        labelNames: ["build_id", "content_revision"] as const,
        registers: [registry],
        collect() {
          const { build_id, content_revision } = store.current().manifest;
          info.reset();
          info.set({ build_id, content_revision: content_revision ?? "" }, 1);
        },
      });
      const age: Gauge = new Gauge({
        name: `${PREFIX}build_age_seconds`,
        help: "Seconds since this instance loaded the build it serves",
        registers: [registry],
        collect() {
          age.set((Date.now() - loadedAt) / 1000);
        },
      });
      const reviews: Gauge = new Gauge({
        name: `${PREFIX}reviews_published`,
        help: "Reviews published in the build this instance serves",
        registers: [registry],
        collect() {
          reviews.set(store.current().manifest.review_count);
        },
      });
      const lastSuccess: Gauge = new Gauge({
        name: `${PREFIX}build_last_success_timestamp_seconds`,
        help: "When the last build succeeded (a server that does not build: when it loaded the build it serves)",
        registers: [registry],
        collect() {
          lastSuccess.set(Math.max(health?.lastSuccess ?? 0, loadedAt) / 1000);
        },
      });
      const stale: Gauge = new Gauge({
        name: `${PREFIX}build_stale_seconds`,
        help: "Seconds since the first content change the build served does not hold (0: the build is current)",
        registers: [registry],
        async collect() {
          stale.set((health ? await health.staleForMs() : 0) / 1000);
        },
      });
      let counted = 0;
      const failures: Counter = new Counter({
        name: `${PREFIX}build_failures_total`,
        help: "Builds of the content that failed in this process",
        registers: [registry],
        collect() {
          const now = health?.failures ?? 0;
          if (now > counted) failures.inc(now - counted);
          counted = now;
        },
      });
    },
    observeDependencies(dependencies) {
      const up: Gauge<"dependency"> = new Gauge({
        name: `${PREFIX}dependency_up`,
        help: "Whether a dependency shared by the instances works (1) or not (0): the instance still serves reads",
        labelNames: ["dependency"] as const,
        registers: [registry],
        async collect() {
          for (const d of await dependencies.check()) up.set({ dependency: d.name }, d.problem === null ? 1 : 0);
        },
      });
    },
    observeHub(source) {
      // The three gauges are collected together: one stats query per scrape, shared while it runs.
      let inFlight: Promise<HubStats | undefined> | undefined;
      const scrapeStats = () =>
        (inFlight ??= source
          .stats()
          .catch(() => undefined)
          .finally(() => {
            inFlight = undefined;
          }));
      const gauge = (
        name: string,
        help: string,
        key: "subscriptions" | "pendingDeliveries" | "pendingVerifications",
      ) => {
        const g: Gauge = new Gauge({
          name: `${PREFIX}${name}`,
          help,
          registers: [registry],
          async collect() {
            // A failing store shows as a missing sample rather than a failed scrape.
            const stats = await scrapeStats();
            if (stats) g.set(stats[key]);
          },
        });
      };
      gauge("hub_subscriptions", "Subscriptions in the hub's store (all instances)", "subscriptions");
      gauge("hub_deliveries_pending", "Deliveries waiting or in flight (all instances)", "pendingDeliveries");
      gauge("hub_verifications_pending", "Verifications of intent waiting or in flight", "pendingVerifications");
    },
    instrument(listener) {
      return (req, res) => {
        (res as Timed)[STARTED] = performance.now();
        res.on("finish", recordDuration);
        listener(req, res);
      };
    },
  };
}

/** MCP methods come from clients: any name outside the protocol's own is counted as "other" (bounded labels). */
const MCP_METHOD_LABELS = new Set<string>([...MCP_METHODS, "(response)"]);
export const mcpMethodLabel = (method: string): string => (MCP_METHOD_LABELS.has(method) ? method : "other");
