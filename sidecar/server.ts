// npm run serve: serves an existing DIST_DIR. Listens, and shuts down gracefully; app.ts assembles.
import { createServer, type Server } from "node:http";
import { pathToFileURL } from "node:url";
import { type RequestHandler, Router } from "express";
import { recoverOutput } from "../src/build/output-folder.ts";
import { type Config, loadConfig } from "../src/config.ts";
import { MAX_HEADER_BYTES } from "../src/domain/limits.ts";
import { MCP_PATH } from "../src/domain/mcp-discovery.ts";
import { API_VERSION } from "../src/domain/openapi.ts";
import { createApp } from "./app.ts";
import { type BuildHealth, buildStatus, createBuildHealth } from "./build-health.ts";
import { type BuildStore, createBuildStore } from "./build-store/build-store.ts";
import { warmSearchMemo } from "./build-store/search-memo.ts";
import { watchContent } from "./content-watcher.ts";
import { pgRateLimitStores } from "./db/pg-rate-limit-store.ts";
import { pgRevocationStore } from "./db/pg-revocation-store.ts";
import { createPool, pingDatabase } from "./db/pool.ts";
import { continueWithinLimits } from "./http/body-limit.ts";
import { limitConnections, serverTimeouts } from "./http/connection-limits.ts";
import { createHub, type Hub, openHubStore } from "./hub/hub.ts";
import { createHubRouter } from "./hub/hub-route.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createMcpDiscoveryRouter } from "./mcp/discovery-route.ts";
import type { createMcpRouter, McpOptions } from "./mcp/mcp-route.ts";
import type { PostLane } from "./mcp/prepared-calls.ts";
import { createMetrics, mcpMethodLabel } from "./metrics.ts";
import { needsBuild } from "./needs-build.ts";
import { createDependencies, createHealthRouter } from "./routes/health.ts";
import { createMetricsRouter } from "./routes/metrics.ts";
import { runBuild, stopBuild } from "./run-build.ts";

export interface RunningSidecar {
  server: Server;
  store: BuildStore;
  hub: Hub;
  url: string;
  close(): Promise<void>;
}

type Mcp = ReturnType<typeof createMcpRouter>;

/**
 * /mcp, with the MCP SDK and the tools' schemas loaded on the first request there (about 12 MB a sidecar that
 * only serves the site and the REST API never spends); the discovery documents are served without them.
 */
function lazyMcpRouter(opts: McpOptions): Mcp {
  let loaded: Promise<Mcp> | undefined;
  let ready: Mcp | undefined;
  const load = () => {
    loaded ??= import("./mcp/mcp-route.ts").then((m) => (ready = m.createMcpRouter(opts)));
    return loaded;
  };
  const handle: RequestHandler = (req, res, next) => void load().then((mcp) => mcp.router(req, res, next), next);
  const router = Router();
  router.use(createMcpDiscoveryRouter(opts.config.BASE_URL, opts.version));
  router.all(MCP_PATH, handle);
  // Until the first request to /mcp has loaded it, nothing is prepared: every request goes to the router.
  const lane: PostLane = (req, res, general, clientAddress) =>
    ready ? ready.lane(req, res, general, clientAddress) : false;
  return { router, lane, close: async () => (loaded ? (await loaded).close() : undefined) };
}

export async function startSidecar(
  config: Config,
  logger: Logger = createLogger(config),
  extras: { buildHealth?: BuildHealth } = {},
): Promise<RunningSidecar> {
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
  let draining = false;
  // What can fail without stopping reads: the hub's store (a full disk, the database) and the shared state.
  const dependencies = createDependencies({
    hub: async () => hub.problems().join("; ") || null,
    ...(pool && rateLimits ? { database: () => pingDatabase(pool), rate_limits: rateLimits.problem } : {}),
  });
  metrics.observeDependencies(dependencies);
  const health = createHealthRouter(store, {
    draining: () => draining,
    dependencies,
    build,
  });
  const app = createApp({
    store,
    logger,
    routers: [health, createMetricsRouter(metrics), mcp.router, hubRouter],
    distDir: config.DIST_DIR,
    trustProxy: config.TRUST_PROXY,
    mcpLane: mcp.lane,
  });
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, ...serverTimeouts });
  const handle = limitConnections(server, metrics.instrument(app), logger);
  continueWithinLimits(server);
  server.on("request", (req, res) => {
    // While draining, every answer closes its connection (Connection: close), so a proxy's next request opens
    // a connection to an instance that stays instead of reusing one this instance is about to close.
    if (draining) res.shouldKeepAlive = false;
    handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  const host = config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST;
  const url = `http://${host}:${port}`;
  logger.info(
    {
      event: "server.listening",
      url,
      pid: process.pid,
      base_url: config.BASE_URL,
      build: store.current().manifest.build_id,
    },
    "listening",
  );
  return {
    server,
    store,
    hub,
    url,
    async close() {
      draining = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      store.close();
      await mcp.close();
      await hub.close();
      await pool?.end();
    },
  };
}

/**
 * SIGTERM or SIGINT: stop accepting, let requests in flight finish (up to 10 s), close resources, exit 0. A second
 * signal exits at once (1). Started by npm (`npm start`, `npm run serve`), the server also drains and exits when
 * npm ends: some npm versions and shells do not pass a signal on, and an orphan would keep the port.
 */
export function exitOnSignals(
  sidecar: RunningSidecar,
  logger: Logger,
  opts: { startedByNpm: boolean; onExit?: () => void },
): void {
  const onExit = opts.onExit ?? (() => {});
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      logger.warn({ event: "server.shutdown_now", signal }, "second signal: exiting without draining");
      sidecar.server.closeAllConnections();
      onExit();
      process.exit(1);
    }
    closing = true;
    logger.info({ event: "server.shutdown", signal }, "shutting down");
    setTimeout(() => {
      sidecar.server.closeAllConnections();
      onExit();
      process.exit(0);
    }, 10_000).unref();
    void sidecar.close().then(() => {
      onExit();
      process.exit(0);
    });
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  if (opts.startedByNpm) {
    const parent = process.ppid;
    // Reparented (to init or a subreaper) means npm is gone, whichever way it ended.
    setInterval(() => {
      if (process.ppid !== parent) shutdown("parent exited");
    }, PARENT_POLL_MS).unref();
  }
}

const PARENT_POLL_MS = 500;

export interface MainOptions {
  /**
   * Rebuild on each change under CONTENT_DIR (npm start; npm run serve -- --watch), and at once when the content
   * is newer than the build served, or when `rebuildNow` says so.
   */
  watch?: { rebuildNow?: boolean };
}

export async function main(opts: MainOptions = {}): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const logger = createLogger(config);
  // A crash is one JSON line with the stack as a field, not Node's lines on stderr a collector splits apart.
  process.on("uncaughtException", (e) => {
    logger.fatal({ event: "process.crashed", err: e instanceof Error ? e.stack : String(e) }, "crashed");
    process.exit(1);
  });
  try {
    for (const done of await recoverOutput(config.DIST_DIR)) logger.warn({ event: "build.recovered", done }, done);
    const buildHealth = opts.watch ? createBuildHealth() : undefined;
    const sidecar = await startSidecar(config, logger, { buildHealth });
    exitOnSignals(sidecar, logger, {
      startedByNpm: config.npm_lifecycle_event !== undefined,
      onExit: opts.watch ? stopBuild : undefined,
    });
    if (opts.watch) {
      const watcher = watchContent({ contentDir: config.CONTENT_DIR, build: runBuild, logger, health: buildHealth });
      // An unreadable CONTENT_DIR is the build's to report (in /readyz), not a reason to stop serving.
      const behind = await needsBuild(config).catch((e: Error) => e.message);
      if (opts.watch.rebuildNow ?? behind !== undefined) watcher.trigger();
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const message =
      err.code === "ENOENT"
        ? `No build in ${config.DIST_DIR}: run npm run build (or npm start, which builds).`
        : err.code === "EADDRINUSE"
          ? `${config.HOST}:${config.PORT} is already in use: stop the other process or set PORT (or HOST) to a free one.`
          : err.code === "EACCES" && err.syscall === "listen"
            ? `Not allowed to listen on ${config.HOST}:${config.PORT}: set PORT to 1024 or above.`
            : err.message;
    logger.fatal({ event: "server.start_failed", err: message }, message);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main(process.argv.includes("--watch") ? { watch: {} } : {});
}
