// Repeated tools/call requests answered before Express, the SDK and the shared servers, like the REST fast path
// (http/fast-path.ts): a call is answered here only when the same request (era, routing and Accept headers,
// params with their _meta: everything but the id) got a prepared result from the shared servers on this build
// before. That answer's bytes after the id are kept (tool-results.ts, mcpCache) and a repeat gets them behind
// its own id, with the headers the general path sends, in one writeHead. A tool is a pure function of the build
// and its arguments, and the SDK's answer a function of the request, so the bytes are the SDK's own.
//
// Never here: anything but a lone tools/call with an integer or string id and plain params (no progress token),
// a body or Content-Type the general path reads another way, a Host it refuses, a 2025 request whose session
// does not resolve, and any request whose answer was an error. Those, and a first sight, take the general path
// (with the body already read: json-body.ts parses it from the text).
import type { IncomingMessage, ServerResponse } from "node:http";
import { MCP_MAX_BODY_BYTES } from "../../src/domain/limits.ts";
import { MCP_PATH } from "../../src/domain/mcp-discovery.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { Snapshot } from "../build-store/snapshot.ts";
import { logRequest } from "../http/cross-cutting.ts";
import { CORS_FIELDS } from "../http/fast-path.ts";
import type { Logger } from "../logger.ts";
import { setRouteLabel } from "../metrics.ts";
import type { Answer } from "./exchange-transport.ts";
import { isPlainBody, keepParsedBody, readPlainBody } from "./json-body.ts";
import type { RpcId, RpcMessage } from "./json-rpc.ts";
import { mcpCache } from "./tool-results.ts";

/** The answer lane's view of the request listener: it answers, or hands the request on (body read) to `general`. */
export type PostLane = (
  req: IncomingMessage,
  res: ServerResponse,
  general: () => void,
  clientAddress: (req: IncomingMessage) => string | undefined,
) => boolean;

const HEAD = '{"jsonrpc":"2.0","id":';
/** Headers the general path sends on a 200 answer before Content-Length, in its order (cors, then sendJsonChunks). */
const HEADERS = [...CORS_FIELDS.flat(), "Content-Type", "application/json"];
/** What a kept answer depends on besides params: the era and the headers the general path reads to answer it. */
const VARIANT_HEADERS = ["mcp-protocol-version", "mcp-method", "mcp-name", "accept"];
const MESSAGE_KEYS = new Set(["jsonrpc", "id", "method", "params"]);

/** A request seen before Express that may be kept once the general path has answered it. */
interface Candidate {
  key: string;
  id: RpcId;
  snapshot: Snapshot;
}
const CANDIDATE = Symbol("mcpCandidate");
type Marked = IncomingMessage & { [CANDIDATE]?: Candidate };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The message when it is a lone tools/call this lane may answer: an id that reads back the same, plain params. */
function plainCall(value: unknown): (RpcMessage & { id: RpcId; params: Record<string, unknown> }) | undefined {
  if (!isRecord(value) || value.jsonrpc !== "2.0" || value.method !== "tools/call") return undefined;
  for (const k in value) if (!MESSAGE_KEYS.has(k)) return undefined;
  const { id, params } = value;
  if (!(Number.isSafeInteger(id) || typeof id === "string") || !isRecord(params)) return undefined;
  if (typeof params.name !== "string" || (params.arguments !== undefined && !isRecord(params.arguments)))
    return undefined;
  const meta = params._meta;
  if (meta !== undefined && (!isRecord(meta) || "progressToken" in meta)) return undefined;
  return value as unknown as RpcMessage & { id: RpcId; params: Record<string, unknown> };
}

export interface PreparedCallsDeps {
  store: BuildStore;
  logger: Logger;
  /** The route's Host check (DNS rebinding). */
  hostAllowed(req: IncomingMessage): boolean;
  /** Which era the route serves the message in. */
  eraOf(req: IncomingMessage, message: RpcMessage): "modern" | "legacy";
  /** A 2025 session id sent back is valid (as the legacy leg resolves it, for the client's address). */
  sessionValid(id: string, client: string): Promise<boolean>;
  onRequest?: (method: string, era: "modern" | "legacy") => void;
}

export function preparedCalls(deps: PreparedCallsDeps) {
  const { store, logger } = deps;
  const logging = logger.isLevelEnabled("info");
  const keyOf = (req: IncomingMessage, era: string, params: Record<string, unknown>) => {
    // A header value holds no line break: one line per header, "-" when it is absent.
    let key = `answer\n${era}\n`;
    for (const name of VARIANT_HEADERS) {
      const v = req.headers[name];
      key += v === undefined ? "-\n" : `=${v}\n`;
    }
    return key + JSON.stringify(params);
  };

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    id: RpcId,
    tail: Buffer,
    started: bigint,
    client?: string,
  ) => {
    const head = `${HEAD}${JSON.stringify(id)}`;
    setRouteLabel(req, MCP_PATH);
    res.writeHead(200, [...HEADERS, "Content-Length", String(Buffer.byteLength(head) + tail.length)]);
    // The kept bytes go out as they are (no copy per answer), behind the head in one writev.
    res.cork();
    res.write(head);
    res.end(tail);
    res.uncork();
    if (logging) logRequest(logger, req, MCP_PATH, 200, started, client);
  };

  const lane: PostLane = (req, res, general, clientAddress) => {
    if (req.method !== "POST" || req.url !== MCP_PATH) return false;
    if ((req.headers["content-type"] ?? "").toLowerCase() !== "application/json") return false;
    if (!isPlainBody(req, MCP_MAX_BODY_BYTES) || !deps.hostAllowed(req)) return false;
    const started = logging ? process.hrtime.bigint() : 0n;
    readPlainBody(req, (text) => {
      let value: unknown;
      try {
        value = text === undefined || text.charCodeAt(0) === 0xfeff ? undefined : JSON.parse(text);
      } catch {
        value = undefined;
      }
      // The general path takes the parsed body as it is (jsonBody), whatever this lane does with it.
      if (value !== undefined) keepParsedBody(req, value);
      const message = plainCall(value);
      if (!message) return general();
      const era = deps.eraOf(req, message);
      const key = keyOf(req, era, message.params);
      const snapshot = store.current();
      const kept = mcpCache.of(snapshot).get(key);
      if (!kept || !("tail" in kept)) {
        (req as Marked)[CANDIDATE] = { key, id: message.id, snapshot };
        return general();
      }
      const id = message.id;
      if (era === "modern") {
        deps.onRequest?.("tools/call", era);
        return send(req, res, id, kept.tail, started, logging ? clientAddress(req) : undefined);
      }
      const session = req.headers["mcp-session-id"];
      const client = clientAddress(req) ?? req.socket.remoteAddress ?? "unknown";
      if (typeof session !== "string") return general();
      deps.sessionValid(session, client).then(
        (valid) => {
          if (!valid) return general();
          deps.onRequest?.("tools/call", era);
          send(req, res, id, kept.tail, started, client);
        },
        () => general(),
      );
    });
    return true;
  };

  /**
   * After the general path answered: keeps the answer of a request the lane saw, when it is the shared servers'
   * prepared result on the build the lane looked the request up in (a reload in between: not kept).
   */
  const keep = (req: IncomingMessage, answer: Answer | undefined) => {
    const c = (req as Marked)[CANDIDATE];
    if (!c || !answer || answer.error || !answer.prepared || store.current() !== c.snapshot) return;
    const prefix = Buffer.from(`${HEAD}${JSON.stringify(c.id)}`);
    const first = answer.frame[0];
    if (first.length < prefix.length || !first.subarray(0, prefix.length).equals(prefix)) return;
    const tail = Buffer.concat([first.subarray(prefix.length), ...answer.frame.slice(1)]);
    mcpCache.of(c.snapshot).set(c.key, { tail, cost: tail.length + 2 * c.key.length });
  };

  return { lane, keep };
}
