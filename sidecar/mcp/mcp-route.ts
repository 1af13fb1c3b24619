// POST/DELETE /mcp: streamable HTTP with JSON responses, one transport per session. This file owns what the
// SDK's transport does not: Origin and Host checks, the body limit, JSON-RPC parse errors, session lookup,
// expiry and the cap.
import { randomUUID } from "node:crypto";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from "express";
import { MCP_MAX_BODY_BYTES } from "../../src/domain/limits.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { Logger } from "../logger.ts";
import { createMcpServer } from "./create-mcp-server.ts";
import { memorySessionStore, type SessionStore } from "./session-store.ts";

export interface McpOptions {
  store: BuildStore;
  baseUrl: string;
  logger: Logger;
  version: string;
  sessions?: SessionStore;
  idleMs?: number;
  maxSessions?: number;
}

function rpcError(res: Response, status: number, code: number, message: string, headers: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(status).json({ jsonrpc: "2.0", id: null, error: { code, message } });
}

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** DNS-rebinding and cross-site protection (MCP transport security): Origin and Host must be ours. */
function guard(baseUrl: string): RequestHandler {
  const base = new URL(baseUrl);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== base.origin) {
      rpcError(res, 403, -32600, `Origin ${origin} is not allowed; only ${base.origin} may call /mcp from a browser`);
      return;
    }
    const host = (req.headers.host ?? "").toLowerCase();
    const port = req.socket.localPort;
    const allowed = host === base.host || LOOPBACK_HOSTS.some((h) => host === `${h}:${port}`);
    if (!allowed) {
      rpcError(res, 403, -32600, `Host ${host || "(none)"} is not allowed; use ${base.host}`);
      return;
    }
    next();
  };
}

export function createMcpRouter(opts: McpOptions): { router: Router; close(): Promise<void> } {
  const sessions = opts.sessions ?? memorySessionStore();
  const idleMs = opts.idleMs ?? 30 * 60_000;
  const maxSessions = opts.maxSessions ?? 1000;
  const router = Router();

  const closeSession = (s: { transport: StreamableHTTPServerTransport; server: { close(): Promise<void> } }) =>
    s.transport
      .close()
      .then(() => s.server.close())
      .catch(() => undefined);
  const sweeper = setInterval(
    () => {
      const idle = sessions.takeIdle(Date.now() - idleMs);
      for (const s of idle) void closeSession(s);
      if (idle.length) opts.logger.info({ event: "mcp.sessions_expired", count: idle.length });
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref();

  const sessionOf = (req: Request) => {
    const id = req.headers["mcp-session-id"];
    return typeof id === "string" ? id : undefined;
  };

  const handle: RequestHandler = async (req, res) => {
    const id = sessionOf(req);
    if (id) {
      const session = sessions.get(id);
      if (!session) {
        rpcError(res, 404, -32001, "Session not found: it ended or expired; send initialize again");
        return;
      }
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res, req.body);
      return;
    }
    if (req.method !== "POST" || !isInitializeRequest(req.body)) {
      rpcError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required (send initialize first to get one)");
      return;
    }
    if (sessions.size() >= maxSessions) {
      rpcError(res, 503, -32000, "Too many live sessions; try again later", { "Retry-After": "60" });
      return;
    }
    const server = createMcpServer(opts);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sid) => {
        sessions.set(sid, { transport, server, lastSeen: Date.now() });
        opts.logger.info({ event: "mcp.session_started", sessions: sessions.size() });
      },
      onsessionclosed: (sid) => {
        sessions.delete(sid);
        void server.close();
      },
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };

  const parseErrors: ErrorRequestHandler = (err, _req, res, next) => {
    const e = err as { type?: string; status?: number };
    if (e.type === "entity.too.large")
      return rpcError(res, 413, -32600, `Request body exceeds ${MCP_MAX_BODY_BYTES} bytes`);
    if (e.type === "entity.parse.failed") return rpcError(res, 400, -32700, "Parse error: the body is not valid JSON");
    if (e.status && e.status >= 400 && e.status < 500) return rpcError(res, e.status, -32600, (err as Error).message);
    next(err);
  };

  router.all("/mcp", guard(opts.baseUrl));
  router.get("/mcp", (_req, res) =>
    rpcError(res, 405, -32000, "This server sends JSON responses only; it opens no SSE stream", {
      Allow: "POST, DELETE",
    }),
  );
  router.post("/mcp", express.json({ limit: MCP_MAX_BODY_BYTES }), handle, parseErrors);
  router.delete("/mcp", handle);
  router.all("/mcp", (_req, res) =>
    rpcError(res, 405, -32000, "Use POST (or DELETE to end a session)", { Allow: "POST, DELETE" }),
  );

  return {
    router,
    async close() {
      clearInterval(sweeper);
      await Promise.all(sessions.takeAll().map(closeSession));
    },
  };
}
