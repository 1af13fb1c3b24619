// /mcp: what the SDK does not do for us. The Host check (DNS rebinding), the content type, the body limit,
// the JSON-RPC shape of the body, then the era: 2026-07-28 requests (the _meta envelope) go to the SDK's
// stateless handler, 2025 ones to the legacy leg with its signed sessions.
import { createHmac, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import express, { type ErrorRequestHandler, type Request, type RequestHandler, Router } from "express";
import type { Config } from "../../src/config.ts";
import { MCP_MAX_BODY_BYTES } from "../../src/domain/limits.ts";
import { MCP_PATH } from "../../src/domain/mcp-discovery.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import { refuseDeclaredOver } from "../http/body-limit.ts";
import { isOwnAuthority } from "../http/request-target.ts";
import type { Logger } from "../logger.ts";
import { createMcpServer, type McpServerDeps } from "./create-mcp-server.ts";
import { createMcpDiscoveryRouter } from "./discovery-route.ts";
import { classifyBody, type RpcMessage } from "./json-rpc.ts";
import { endSession, legacyLeg } from "./legacy-leg.ts";
import { paramsProblem } from "./params.ts";
import { MODERN_REVISIONS } from "./revisions.ts";
import { memoryRevocationStore, type RevocationStore } from "./revocation-store.ts";
import { rpcError } from "./rpc-error.ts";
import { sessionRegistry } from "./session-registry.ts";
import { sessionTokens } from "./session-token.ts";

type McpConfig = Pick<
  Config,
  | "BASE_URL"
  | "MCP_SESSION_IDLE_SECONDS"
  | "MCP_UNINITIALIZED_SESSION_SECONDS"
  | "MCP_MAX_SESSIONS"
  | "MCP_MAX_SESSIONS_PER_CLIENT"
  | "MCP_SESSION_SECRET"
>;

export interface McpOptions {
  store: BuildStore;
  logger: Logger;
  version: string;
  config: McpConfig;
  /** Shared with the other instances when they share PostgreSQL; in memory otherwise. */
  revocations?: RevocationStore;
  /** The key that signs session ids when MCP_SESSION_SECRET is not set: the database's, shared by instances. */
  sharedSessionKey?: Buffer;
  /** Counts MCP requests by method and protocol era (metrics). */
  onRequest?: (method: string, era: "modern" | "legacy") => void;
}

/**
 * DNS rebinding: a page on a hostile name that resolves to this server must not reach it, so the Host must
 * be ours. Origin is not checked: the data is public and read-only, so any site may call /mcp (CORS).
 */
function hostGuard(baseUrl: string): RequestHandler {
  const base = new URL(baseUrl);
  return (req, res, next) => {
    if (isOwnAuthority(baseUrl, req.headers.host ?? "", req.socket.localPort)) return next();
    const host = (req.headers.host ?? "").toLowerCase();
    rpcError(res, 403, -32600, `Host ${host || "(none)"} is not allowed; use ${base.host}`);
  };
}

const tooLarge: RequestHandler = (_req, res) =>
  rpcError(res, 413, -32600, `Request body exceeds ${MCP_MAX_BODY_BYTES} bytes`);

const jsonContentType: RequestHandler = (req, res, next) => {
  if (req.is("application/json")) return next();
  rpcError(res, 415, -32600, "Unsupported Media Type: send Content-Type: application/json");
};

/**
 * A 2026-07-28 request: it carries the protocol-version claim in _meta, or names a modern revision, or is
 * server/discover (which only the modern revision defines; without a claim the SDK says which it serves).
 */
function isModern(req: IncomingMessage, message: RpcMessage): boolean {
  const header = req.headers["mcp-protocol-version"];
  if (typeof header === "string" && MODERN_REVISIONS.includes(header)) return true;
  if (message.method === "server/discover") return true;
  const meta = message.params?._meta;
  return typeof meta === "object" && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * A key every instance derives the same way from the configured secret; else the one instances on one database
 * share; else a random one for a lone instance.
 */
const sessionKey = (secret: string | undefined, shared: Buffer | undefined) =>
  secret ? createHmac("sha256", secret).update("mcp-session-id").digest() : (shared ?? randomBytes(32));

export function createMcpRouter(opts: McpOptions): { router: Router; close(): Promise<void> } {
  const { config } = opts;
  const deps: McpServerDeps = { store: opts.store, baseUrl: config.BASE_URL, version: opts.version };
  const revocations = opts.revocations ?? memoryRevocationStore();
  const sessions = sessionRegistry(
    sessionTokens(sessionKey(config.MCP_SESSION_SECRET, opts.sharedSessionKey)),
    revocations,
    {
      idleMs: config.MCP_SESSION_IDLE_SECONDS * 1000,
      uninitializedMs: config.MCP_UNINITIALIZED_SESSION_SECONDS * 1000,
      maxSessions: config.MCP_MAX_SESSIONS,
      maxPerClient: config.MCP_MAX_SESSIONS_PER_CLIENT,
    },
  );
  const clientOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? "unknown";
  const onerror = (error: Error) => opts.logger.warn({ event: "mcp.error", err: error.message });
  const modern = createMcpHandler(() => createMcpServer(deps), {
    legacy: "reject",
    // "auto" answers JSON unless a handler streams; ours never do.
    responseMode: "auto",
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
    onerror,
  });
  const modernNode = toNodeHandler(modern);
  const legacy = legacyLeg(deps, sessions, clientOf);

  const sweepEvery = Math.min(config.MCP_UNINITIALIZED_SESSION_SECONDS * 1000, 60_000);
  const sweeper = setInterval(async () => {
    const count = await sessions.sweep().catch(() => 0);
    if (count) opts.logger.info({ event: "mcp.sessions_expired", count, live: sessions.size() });
  }, sweepEvery);
  sweeper.unref();

  const handlePost: RequestHandler = async (req, res) => {
    const body = classifyBody(req.body);
    if (!body.ok) return rpcError(res, 400, body.problem.code, body.problem.message, body.problem.id);
    const era = !body.batch && isModern(req, body.message) ? "modern" : "legacy";
    const bad = (body.batch ? body.messages : [body.message]).map((m) => paramsProblem(m, era)).find(Boolean);
    // 200, as the SDK answers errors raised while handling a request.
    if (bad) return rpcError(res, 200, bad.code, bad.message, bad.id);
    for (const m of body.batch ? body.messages : [body.message]) opts.onRequest?.(m.method ?? "(response)", era);
    if (era === "modern") return modernNode(req, res, req.body);
    await legacy(req, res, body);
  };

  const parseErrors: ErrorRequestHandler = (err, req, res, next) => {
    const e = err as { type?: string; status?: number };
    if (e.type === "entity.too.large") return tooLarge(req, res, next);
    if (e.type === "entity.parse.failed") return rpcError(res, 400, -32700, "Parse error: the body is not valid JSON");
    if (e.status && e.status >= 400 && e.status < 500) return rpcError(res, e.status, -32600, (err as Error).message);
    next(err);
  };

  const router = Router();
  router.use(createMcpDiscoveryRouter(config.BASE_URL, opts.version));
  router.all(MCP_PATH, hostGuard(config.BASE_URL));
  router.get(MCP_PATH, (_req, res) =>
    rpcError(res, 405, -32000, "This server sends JSON responses only; it opens no SSE stream", null, {
      Allow: "POST, DELETE",
    }),
  );
  router.post(
    MCP_PATH,
    jsonContentType,
    refuseDeclaredOver(MCP_MAX_BODY_BYTES, tooLarge),
    express.json({ limit: MCP_MAX_BODY_BYTES, strict: false }),
    handlePost,
    parseErrors,
  );
  router.delete(MCP_PATH, endSession(sessions, clientOf));
  router.all(MCP_PATH, (_req, res) =>
    rpcError(res, 405, -32000, "Use POST (or DELETE to end a session)", null, { Allow: "POST, DELETE" }),
  );

  return {
    router,
    async close() {
      clearInterval(sweeper);
      await modern.close();
      await revocations.close();
    },
  };
}
