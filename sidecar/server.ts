// npm run serve: serves an existing DIST_DIR. Listens, and shuts down gracefully; assemble.ts builds the sidecar.
import "../src/require-node-version.ts";
import { createServer, type Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { pathToFileURL } from "node:url";
import { recoverOutput } from "../src/build/output-folder.ts";
import { type Config, loadConfig } from "../src/config.ts";
import { MAX_HEADER_BYTES } from "../src/domain/limits.ts";
import { assembleSidecar } from "./assemble.ts";
import { type BuildHealth, createBuildHealth } from "./build-health.ts";
import type { BuildStore } from "./build-store/build-store.ts";
import { watchContent } from "./content-watcher.ts";
import { continueWithinLimits } from "./http/body-limit.ts";
import { limitConnections, serverTimeouts } from "./http/connection-limits.ts";
import { releaseMemoryWhenIdle } from "./http/idle-release.ts";
import type { Hub } from "./hub/hub.ts";
import { createLogger, type Logger } from "./logger.ts";
import { needsBuild } from "./needs-build.ts";
import { runBuild, stopBuild } from "./run-build.ts";

export interface RunningSidecar {
  server: Server;
  store: BuildStore;
  hub: Hub;
  url: string;
  close(): Promise<void>;
}

export async function startSidecar(
  config: Config,
  logger: Logger = createLogger(config),
  extras: { buildHealth?: BuildHealth } = {},
): Promise<RunningSidecar> {
  const sidecar = await assembleSidecar(config, logger, extras);
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, ...serverTimeouts });
  const { listener, store, hub, state } = sidecar;
  const handle = limitConnections(server, listener, logger);
  continueWithinLimits(server);
  server.once("close", releaseMemoryWhenIdle(logger));
  server.on("request", (req, res) => {
    // While draining, every answer closes its connection (Connection: close), so a proxy's next request opens
    // a connection to an instance that stays instead of reusing one this instance is about to close.
    if (state.draining) res.shouldKeepAlive = false;
    handle(req, res);
  });
  // Node hands CONNECT to a 'connect' listener with the bare socket (and drops the connection without one): it
  // gets a response of Node's own on that socket, through the same app, which answers 501.
  server.on("connect", (req, socket) => {
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    res.once("finish", () => socket.end());
    listener(req, res);
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
      state.draining = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await sidecar.close();
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
