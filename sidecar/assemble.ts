// Assembles a sidecar from its configuration: the build store, metrics, the database pool when DATABASE_URL is
// set, MCP, the hub, health, and the Express app over them. server.ts listens and shuts down.
import type { RequestListener } from "node:http";
import { type RequestHandler, Router } from "express";
import type { Config } from "../src/config.ts";
import { MCP_PATH } from "../src/domain/mcp-discovery.ts";
import { API_VERSION } from "../src/domain/openapi.ts";
import { createApp } from "./app.ts";
import { type BuildHealth, buildStatus } from "./build-health.ts";
import { type BuildStore, createBuildStore } from "./build-store/build-store.ts";
import { warmSearchMemo } from "./build-store/search-memo.ts";
import { pgRateLimitStores } from "./db/pg-rate-limit-store.ts";
import { pgRevocationStore, pgSessionKey } from "./db/pg-revocation-store.ts";
import { createPool, pingDatabase } from "./db/pool.ts";
import { createDependencies } from "./dependencies.ts";
import { createHub, type Hub, openHubStore } from "./hub/hub.ts";
import { createHubRouter } from "./hub/hub-route.ts";
import type { Logger } from "./logger.ts";
import { createMcpDiscoveryRouter } from "./mcp/discovery-route.ts";
import type { createMcpRouter, McpOptions } from "./mcp/mcp-route.ts";
import { createMetrics, mcpMethodLabel } from "./metrics.ts";
import { createHealthRouter } from "./routes/health.ts";
import { createMetricsRouter } from "./routes/metrics.ts";

export interface Sidecar {
  /** Every request, timed for the metrics. */
  listener: RequestListener;
  store: BuildStore;
  hub: Hub;
  /** Set when shutting down: readiness turns 503. */
  state: { draining: boolean };
  /** Closes the store, MCP, the hub and the pool (after the server stopped taking requests). */
  close(): Promise<void>;
}

type Mcp = ReturnType<typeof createMcpRouter>;

/**
 * /mcp, with the MCP SDK and the tools' schemas loaded on the first request there (about 12 MB a sidecar that
 * only serves the site and the REST API never spends); the discovery documents are served without them.
 */
function lazyMcpRouter(opts: McpOptions): Mcp {
  let loaded: Promise<Mcp> | undefined;
  const load = () => {
    loaded ??= import("./mcp/mcp-route.ts").then((m) => m.createMcpRouter(opts));
    return loaded;
  };
  const handle: RequestHandler = (req, res, next) => void load().then((mcp) => mcp.router(req, res, next), next);
  const router = Router();
  router.use(createMcpDiscoveryRouter(opts.config.BASE_URL, opts.version));
  router.all(MCP_PATH, handle);
  return { router, close: async () => (loaded ? (await loaded).close() : undefined) };
}

export async function assembleSidecar(
  config: Config,
  logger: Logger,
  extras: { buildHealth?: BuildHealth } = {},
): Promise<Sidecar> {
  const state = { draining: false };

  const store = await createBuildStore({
    distDir: config.DIST_DIR,
    baseUrl: config.BASE_URL,
    logger,
    prepare: warmSearchMemo,
  });
  const metrics = createMetrics();
  const build = buildStatus(extras.buildHealth, config.DIST_DIR);
  metrics.observeBuild(store, build);
  // DATABASE_URL: shared state (hub, rate limits, ended MCP sessions) in PostgreSQL for several instances;
  // else SQLite in DATA_DIR and memory.
  const pool = config.DATABASE_URL ? createPool(config.DATABASE_URL) : undefined;
  const rateLimits = pool && (await pgRateLimitStores(pool, logger));
  const mcp = lazyMcpRouter({
    store,
    logger,
    version: API_VERSION,
    config,
    onRequest: (method) => metrics.mcpRequests.inc({ method: mcpMethodLabel(method) }),
    sharedSessionKey: pool && !config.MCP_SESSION_SECRET ? await pgSessionKey(pool) : undefined,
    revocations: pool
      ? await pgRevocationStore(
          pool,
          (e) =>
            logger.warn({ event: "mcp.revocations_unavailable", err: e.message }, "could not read ended MCP sessions"),
          (message) => logger.warn({ event: "db.schema_repaired", component: "mcp_sessions" }, message),
        )
      : undefined,
  });
  const hub = createHub({
    config,
    builds: store,
    logger,
    store: await openHubStore(config, pool),
    metrics: metrics.hub,
  });
  metrics.observeHub(hub);
  const hubRouter = createHubRouter(hub, {
    perClientPerMinute: config.HUB_RATE_LIMIT_PER_CLIENT,
    perCallbackHostPerMinute: config.HUB_RATE_LIMIT_PER_CALLBACK_HOST,
    store: rateLimits && ((name) => rateLimits.store(`hub-${name}`)),
  });
  // What can fail without stopping reads: the hub's store (a full disk, the database) and the shared state.
  const dependencies = createDependencies({
    hub: async () => hub.problems().join("; ") || null,
    ...(pool && rateLimits ? { database: () => pingDatabase(pool), rate_limits: rateLimits.problem } : {}),
  });
  metrics.observeDependencies(dependencies);
  const health = createHealthRouter(store, {
    draining: () => state.draining,
    dependencies,
    build,
  });
  const app = createApp({
    store,
    logger,
    routers: [health, createMetricsRouter(metrics), mcp.router, hubRouter],
    distDir: config.DIST_DIR,
    trustProxy: config.TRUST_PROXY,
  });
  return {
    listener: metrics.instrument(app),
    store,
    hub,
    state,
    async close() {
      store.close();
      await mcp.close();
      await hub.close();
      await pool?.end();
    },
  };
}
