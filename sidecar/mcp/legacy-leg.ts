// 2025-era traffic (2025-11-25, 2025-06-18, 2025-03-26): initialize hands out a signed session id, later
// requests must bring it back. One long-lived server answers every POST over one shared transport that
// keeps each POST's requests apart (exchange-transport.ts): nothing accumulates per request, no server is
// built per request, and any instance can answer. initialize alone gets a fresh server, so that what it
// negotiates stays with it.
import type { Request, Response } from "express";
import type { McpServerDeps } from "./create-mcp-server.ts";
import { createMcpServer } from "./create-mcp-server.ts";
import { type Answer, ExchangeTransport, sendJsonChunks } from "./exchange-transport.ts";
import { BATCH_REVISIONS, type Classified, idOf, type RpcMessage } from "./json-rpc.ts";
import { LEGACY_REVISIONS } from "./revisions.ts";
import { rpcError } from "./rpc-error.ts";
import type { SessionRegistry } from "./session-registry.ts";

const SESSION_HEADER = "mcp-session-id";

const ACCEPTS = ["application/json", "text/event-stream"];

const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

/**
 * Answers the messages of one POST: 202 for notifications only, else their answers as one JSON body. Returns
 * the answer of a lone request (what prepared-calls.ts may keep for its repeats).
 */
async function answer(
  res: Response,
  body: Classified & { ok: true },
  exchange: (m: RpcMessage[]) => Promise<Answer[]>,
): Promise<Answer | undefined> {
  const answers = await exchange(body.batch ? body.messages : [body.message]);
  if (answers.length === 0) {
    res.status(202).end();
    return undefined;
  }
  if (!body.batch) {
    sendJsonChunks(res, answers[0].frame);
    return answers[0];
  }
  const frames = answers.map((a) => a.frame);
  sendJsonChunks(res, [OPEN, ...frames.flatMap((f, i) => (i ? [COMMA, ...f] : f)), CLOSE]);
  return undefined;
}

/** initialize: a fresh server over a one-exchange transport, closed after. */
async function initialize(deps: McpServerDeps, messages: RpcMessage[]): Promise<Answer[]> {
  const transport = new ExchangeTransport();
  const server = createMcpServer(deps, transport.hooks);
  await server.connect(transport);
  try {
    return await transport.exchange(messages);
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
  const transport = new ExchangeTransport();
  const shared = createMcpServer(deps, transport.hooks);
  const connected = shared.connect(transport);
  const exchange = async (messages: RpcMessage[]) => {
    await connected;
    return transport.exchange(messages);
  };
  /** Answers the POST; returns the answer of a lone request served by the shared server in a valid session. */
  const handle = async (req: Request, res: Response, body: Classified & { ok: true }): Promise<Answer | undefined> => {
    const first = body.batch ? body.messages[0] : body.message;
    const id = idOf(first);
    const problem = transportProblem(req);
    if (problem) {
      rpcError(res, problem[0], -32000, problem[1], id);
      return undefined;
    }
    if (!body.batch && body.message.method === "initialize") {
      const opened = sessions.open(clientOf(req), negotiated(body.message.params?.protocolVersion));
      if (!opened.ok) {
        const message =
          opened.reason === "too_many"
            ? "Too many live sessions; try again later"
            : "Too many live sessions from your address; end one with DELETE /mcp or let it expire";
        rpcError(res, opened.reason === "too_many" ? 503 : 429, -32000, message, id, { "Retry-After": "60" });
        return undefined;
      }
      res.setHeader("Mcp-Session-Id", opened.id);
      await answer(res, body, (m) => initialize(deps, m));
      return undefined;
    }
    const sessionId = req.headers[SESSION_HEADER];
    if (typeof sessionId !== "string") {
      rpcError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required (send initialize first)", id);
      return undefined;
    }
    const session = await sessions.resolve(sessionId, clientOf(req));
    if (!session.ok) {
      rpcError(res, 404, -32001, "Session not found: it ended or expired; send initialize again", id);
      return undefined;
    }
    if (body.batch && !BATCH_REVISIONS.has(session.claims.version)) {
      rpcError(res, 400, -32600, `Invalid Request: protocol revision ${session.claims.version} has no batches`);
      return undefined;
    }
    const messages = body.batch ? body.messages : [body.message];
    if (messages.some((m) => m.method === "notifications/initialized")) sessions.markInitialized(sessionId);
    // An initialize inside a session (a batch of 2025-03-26) must not change what the shared server negotiated.
    if (messages.some((m) => m.method === "initialize")) {
      await answer(res, body, (m) => initialize(deps, m));
      return undefined;
    }
    return answer(res, body, exchange);
  };
  return { handle, close: () => shared.close() };
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
