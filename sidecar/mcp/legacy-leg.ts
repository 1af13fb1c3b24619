// 2025-era traffic (2025-11-25, 2025-06-18, 2025-03-26): initialize hands out a signed session id, later
// requests must bring it back, and each POST is answered by a fresh server over a one-exchange transport
// (nothing accumulates per request, unlike a session-long transport, and any instance can answer).
import type { Request, Response } from "express";
import type { McpServerDeps } from "./create-mcp-server.ts";
import { createMcpServer } from "./create-mcp-server.ts";
import { ExchangeTransport } from "./exchange-transport.ts";
import { BATCH_REVISIONS, type Classified, idOf } from "./json-rpc.ts";
import { LEGACY_REVISIONS } from "./revisions.ts";
import { rpcError } from "./rpc-error.ts";
import type { SessionRegistry } from "./session-registry.ts";

const SESSION_HEADER = "mcp-session-id";

const ACCEPTS = ["application/json", "text/event-stream"];

/** Answers the messages of one POST with a fresh server over a one-exchange transport. */
async function serve(deps: McpServerDeps, res: Response, body: Classified & { ok: true }): Promise<void> {
  const server = createMcpServer(deps);
  const transport = new ExchangeTransport();
  await server.connect(transport);
  try {
    const answers = await transport.exchange(body.batch ? body.messages : [body.message]);
    if (answers.length === 0) res.status(202).end();
    else
      res
        .status(200)
        .type("application/json")
        .send(JSON.stringify(body.batch ? answers : answers[0]));
  } finally {
    await server.close();
  }
}

/** What the streamable HTTP transport of the 2025 revisions requires of every POST. */
function transportProblem(req: Request): [number, string] | undefined {
  const accept = req.headers.accept ?? "";
  if (!ACCEPTS.every((t) => accept.includes(t)))
    return [406, "Not Acceptable: the client must accept both application/json and text/event-stream"];
  const version = req.headers["mcp-protocol-version"];
  if (version !== undefined && !LEGACY_REVISIONS.includes(String(version)))
    return [
      400,
      `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${LEGACY_REVISIONS.join(", ")})`,
    ];
  return undefined;
}

/** The revision initialize will settle on: the client's when we speak it, else our newest 2025 one. */
const negotiated = (requested: unknown) =>
  typeof requested === "string" && LEGACY_REVISIONS.includes(requested) ? requested : LEGACY_REVISIONS[0];

export function legacyLeg(deps: McpServerDeps, sessions: SessionRegistry, clientOf: (req: Request) => string) {
  return async (req: Request, res: Response, body: Classified & { ok: true }): Promise<void> => {
    const first = body.batch ? body.messages[0] : body.message;
    const id = idOf(first);
    const problem = transportProblem(req);
    if (problem) {
      rpcError(res, problem[0], -32000, problem[1], id);
      return;
    }
    if (!body.batch && body.message.method === "initialize") {
      const opened = sessions.open(clientOf(req), negotiated(body.message.params?.protocolVersion));
      if (!opened.ok) {
        const message =
          opened.reason === "too_many"
            ? "Too many live sessions; try again later"
            : "Too many live sessions from your address; end one with DELETE /mcp or let it expire";
        rpcError(res, opened.reason === "too_many" ? 503 : 429, -32000, message, id, { "Retry-After": "60" });
        return;
      }
      res.setHeader("Mcp-Session-Id", opened.id);
      await serve(deps, res, body);
      return;
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
    await serve(deps, res, body);
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
