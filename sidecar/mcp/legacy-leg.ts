// 2025-era traffic (2025-11-25, 2025-06-18, 2025-03-26): initialize hands out a signed session id, later
// requests must bring it back (session-registry.ts). The SDK's own streamable HTTP transport answers each POST,
// stateless and in JSON, over a server made for that request: any instance can answer any session, and nothing
// is kept between requests.
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { isJSONRPCErrorResponse, type JSONRPCMessage, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { Request, Response } from "express";
import type { McpServerDeps } from "./create-mcp-server.ts";
import { createMcpServer } from "./create-mcp-server.ts";
import { BATCH_REVISIONS, type Classified, idOf } from "./json-rpc.ts";
import { LEGACY_REVISIONS } from "./revisions.ts";
import { rpcError } from "./rpc-error.ts";
import type { SessionRegistry } from "./session-registry.ts";

const SESSION_HEADER = "mcp-session-id";

/**
 * The 2025 revisions name -32002 for a resource that does not exist; the SDK answers every revision with the
 * 2026-07-28 code, -32602 with `data: { uri }` (its ResourceNotFoundError). On this leg, and only for that error,
 * the code is the one the session's revision specifies; message and data stay the SDK's.
 */
export function withRevisionResourceCode(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCErrorResponse(message) || message.error.code !== ProtocolErrorCode.InvalidParams) return message;
  const data = message.error.data as Record<string, unknown> | undefined;
  const notFound = typeof data?.uri === "string" && Object.keys(data).length === 1;
  return notFound ? { ...message, error: { ...message.error, code: ProtocolErrorCode.ResourceNotFound } } : message;
}

/** Answers one POST with a server and transport of its own, closed when the response is done. */
async function serve(deps: McpServerDeps, req: Request, res: Response): Promise<void> {
  const server = createMcpServer(deps);
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(withRevisionResourceCode(message), options);
  res.once("close", () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

/** The revision initialize will settle on: the client's when we speak it, else our newest 2025 one. */
const negotiated = (requested: unknown) =>
  typeof requested === "string" && LEGACY_REVISIONS.includes(requested) ? requested : LEGACY_REVISIONS[0];

export function legacyLeg(deps: McpServerDeps, sessions: SessionRegistry, clientOf: (req: Request) => string) {
  /** Checks the session (or opens one for initialize), then lets the SDK answer. */
  return async (req: Request, res: Response, body: Classified & { ok: true }): Promise<void> => {
    const first = body.batch ? body.messages[0] : body.message;
    const id = idOf(first);
    if (!body.batch && body.message.method === "initialize") {
      const opened = await sessions.open(clientOf(req), negotiated(body.message.params?.protocolVersion));
      if (!opened.ok) {
        const seconds = Math.ceil(opened.retryAfterMs / 1000);
        rpcError(res, 503, -32000, `Too many live sessions on this server; one expires in ${seconds} s`, id, {
          "Retry-After": String(seconds),
        });
        return;
      }
      // Set before the transport writes its head, which keeps headers already set.
      res.setHeader("Mcp-Session-Id", opened.id);
      return serve(deps, req, res);
    }
    const sessionId = req.headers[SESSION_HEADER];
    if (typeof sessionId !== "string") {
      rpcError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required (send initialize first)", id);
      return;
    }
    const session = await sessions.resolve(sessionId, clientOf(req));
    if (!session.ok) {
      rpcError(res, 404, -32001, "Session not found: it ended or expired; send initialize again", id);
      return;
    }
    if (body.batch && !BATCH_REVISIONS.has(session.claims.version)) {
      rpcError(res, 400, -32600, `Invalid Request: protocol revision ${session.claims.version} has no batches`);
      return;
    }
    const messages = body.batch ? body.messages : [body.message];
    if (messages.some((m) => m.method === "notifications/initialized")) sessions.markInitialized(sessionId);
    return serve(deps, req, res);
  };
}

/** DELETE /mcp: ends the session on every instance. */
export function endSession(sessions: SessionRegistry, clientOf: (req: Request) => string) {
  return async (req: Request, res: Response): Promise<void> => {
    const sessionId = req.headers[SESSION_HEADER];
    if (typeof sessionId !== "string") {
      rpcError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
      return;
    }
    const session = await sessions.resolve(sessionId, clientOf(req));
    if (!session.ok) {
      rpcError(res, 404, -32001, "Session not found: it ended or expired");
      return;
    }
    await sessions.end(sessionId, session.claims);
    res.status(200).end();
  };
}
