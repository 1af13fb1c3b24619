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
import { type ClientAddress, CORS_FIELDS, logRequest } from "../http/cross-cutting.ts";
import type { Logger } from "../logger.ts";
import { setRouteLabel } from "../metrics.ts";
import type { Answer } from "./exchange-transport.ts";
import { isPlainBody, keepParsedBody, readPlainBody } from "./json-body.ts";
import { ID_HEAD, isObject, REQUEST_MEMBERS, type RpcId, type RpcMessage } from "./json-rpc.ts";
import { plainToolsCall } from "./params.ts";
import { mcpCache } from "./tool-results.ts";

/** The answer lane's view of the request listener: it answers, or hands the request on (body read) to `general`. */
export type PostLane = (
  req: IncomingMessage,
  res: ServerResponse,
  general: () => void,
  clientAddress: ClientAddress,
) => boolean;

/** Headers the general path sends on a 200 answer before Content-Length, in its order (cors, then sendJsonChunks). */
const HEADERS = [...CORS_FIELDS.flat(), "Content-Type", "application/json"];
/** What a kept answer depends on besides params: the era and the headers the general path reads to answer it. */
const VARIANT_HEADERS = ["mcp-protocol-version", "mcp-method", "mcp-name", "accept"];

/** A request seen before Express that may be kept once the general path has answered it. */
interface Candidate {
  key: string;
  id: RpcId;
  snapshot: Snapshot;
}
const CANDIDATE = Symbol("mcpCandidate");
type Marked = IncomingMessage & { [CANDIDATE]?: Candidate };

/**
 * Where a body's id is, when it is a plain token in one of the two places clients put it: right after
 * `{"jsonrpc":"2.0","id":` (JSON.stringify of {jsonrpc, id, ...}) or as the last member, `,"id":<id>}` (the SDK
 * client's order). A plain token: an integer of at most 15 digits, or a string without escapes or control
 * characters, so that any other plain token in its place leaves the text valid JSON with only the id changed.
 */
const ID_LAST = ',"id":';
export function idToken(text: string): { start: number; end: number } | undefined {
  if (text.startsWith(ID_HEAD)) {
    const start = ID_HEAD.length;
    const end = tokenEnd(text, start);
    return end !== undefined && text.charCodeAt(end) === 0x2c /* , */ ? { start, end } : undefined;
  }
  if (text.charCodeAt(text.length - 1) !== 0x7d /* } */) return undefined;
  const at = text.lastIndexOf(ID_LAST);
  if (at === -1) return undefined;
  const start = at + ID_LAST.length;
  const end = tokenEnd(text, start);
  return end === text.length - 1 ? { start, end } : undefined;
}

/** The end of the plain id token at `start` (see idToken), or undefined. */
function tokenEnd(text: string, start: number): number | undefined {
  let i = start;
  if (text.charCodeAt(i) === 0x22 /* " */) {
    for (i++; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return i + 1;
      if (c < 0x20 || c === 0x5c /* \ */) return undefined;
    }
    return undefined;
  }
  if (text.charCodeAt(i) === 0x2d /* - */) i++;
  const digits = i;
  while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
  const n = i - digits;
  if (n === 0 || n > 15 || (n > 1 && text.charCodeAt(digits) === 0x30)) return undefined;
  return i;
}

const idOf = (token: string): RpcId => (token.charCodeAt(0) === 0x22 ? token.slice(1, -1) : Number(token));

/**
 * What a body without its id parsed to: the era and the kept answer's key. Keyed by the variant headers and the
 * body with its id token cut out, so a client that numbers its calls finds it too. Bounded like the encoding
 * memo: more distinct bodies than MEMO_ENTRIES, and it starts over; bodies over MEMO_MAX_BODY characters are not
 * remembered (a tools/call is a few hundred), so it holds a few MB at most.
 */
interface Parsed {
  era: "modern" | "legacy";
  key: string;
}
const MEMO_ENTRIES = 1024;
const MEMO_MAX_BODY = 2048;

/** The message when it is a lone tools/call this lane may answer: an id that reads back the same, plain params. */
function plainCall(value: unknown): (RpcMessage & { id: RpcId; params: Record<string, unknown> }) | undefined {
  if (!isObject(value) || value.jsonrpc !== "2.0" || value.method !== "tools/call") return undefined;
  for (const k in value) if (!REQUEST_MEMBERS.has(k)) return undefined;
  const { id, params } = value;
  if (!(Number.isSafeInteger(id) || typeof id === "string") || !isObject(params) || !plainToolsCall(params))
    return undefined;
  if (isObject(params._meta) && "progressToken" in params._meta) return undefined;
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
  /** The variant headers, one line each ("-" when absent; a header value holds no line break). */
  const variantOf = (req: IncomingMessage) => {
    let lines = "";
    for (const name of VARIANT_HEADERS) {
      const v = req.headers[name];
      lines += v === undefined ? "-\n" : `=${v}\n`;
    }
    return lines;
  };
  const keyOf = (variant: string, era: string, params: Record<string, unknown>) =>
    `answer\n${era}\n${variant}${JSON.stringify(params)}`;
  const memo = new Map<string, Parsed>();
  /** Remembers what `text` parsed to, when its id is a plain token that JSON.parse reads as the message's id. */
  const remember = (memoKey: string, text: string, at: { start: number; end: number }, parsed: Parsed) => {
    // A later "id" member would win over the token: the text with null in its place must read back null. This
    // check is sound only because callers remember a body whose parsed id is not null (a later `"id":null` would
    // pass it otherwise); tests/unit/mcp-id-token.test.ts pins both conditions together.
    let check: unknown;
    try {
      check = JSON.parse(`${text.slice(0, at.start)}null${text.slice(at.end)}`);
    } catch {
      return;
    }
    if (!isObject(check) || check.id !== null) return;
    if (memo.size >= MEMO_ENTRIES) memo.clear();
    memo.set(memoKey, parsed);
  };

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    id: RpcId,
    tail: Buffer,
    started: bigint,
    client?: string,
  ) => {
    const head = `${ID_HEAD}${JSON.stringify(id)}`;
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
      const variant = variantOf(req);
      const at = text !== undefined && text.length <= MEMO_MAX_BODY ? idToken(text) : undefined;
      const memoKey = at && `${variant}${text?.slice(0, at.start)}\n${text?.slice(at.end)}`;
      const snapshot = store.current();
      // A body seen before with any id: its kept answer without parsing it again.
      const seen = memoKey === undefined ? undefined : memo.get(memoKey);
      let kept = seen && mcpCache.of(snapshot).get(seen.key);
      let id: RpcId;
      let era: "modern" | "legacy";
      if (seen && at && kept && "tail" in kept) {
        id = idOf((text as string).slice(at.start, at.end));
        era = seen.era;
      } else {
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
        era = deps.eraOf(req, message);
        const key = keyOf(variant, era, message.params);
        if (memoKey !== undefined && at && !seen) remember(memoKey, text as string, at, { era, key });
        kept = mcpCache.of(snapshot).get(key);
        if (!kept || !("tail" in kept)) {
          (req as Marked)[CANDIDATE] = { key, id: message.id, snapshot };
          return general();
        }
        id = message.id;
      }
      const tail = kept.tail;
      if (era === "modern") {
        deps.onRequest?.("tools/call", era);
        return send(req, res, id, tail, started, logging ? clientAddress(req) : undefined);
      }
      const session = req.headers["mcp-session-id"];
      const client = clientAddress(req) ?? req.socket.remoteAddress ?? "unknown";
      if (typeof session !== "string") return general();
      deps.sessionValid(session, client).then(
        (valid) => {
          if (!valid) return general();
          deps.onRequest?.("tools/call", era);
          send(req, res, id, tail, started, client);
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
    const prefix = Buffer.from(`${ID_HEAD}${JSON.stringify(c.id)}`);
    const first = answer.frame[0];
    if (first.length < prefix.length || !first.subarray(0, prefix.length).equals(prefix)) return;
    const tail = Buffer.concat([first.subarray(prefix.length), ...answer.frame.slice(1)]);
    mcpCache.of(c.snapshot).set(c.key, { tail, cost: tail.length + 2 * c.key.length });
  };

  return { lane, keep };
}
