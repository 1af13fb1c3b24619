// An SDK Transport in JSON-response mode, shared by the POSTs that one long-lived server answers at the same
// time: the requests of a POST go in under ids of the transport's own (two clients that both sent id 1 never
// get each other's answer) and their answers come out as the JSON frames the route writes, with the client's
// ids back. The SDK still does the protocol (validation, dispatch, result encoding); this replaces its HTTP
// transports, whose Node -> web Request -> Response -> Node conversions cost more than the tool call, and
// their serialisation of a tools/call result prepared from bytes (tool-results.ts): the frame is written from
// those bytes when the result the SDK sends is the one prepared.
//
// It extends the SDK's PerRequestHTTPServerTransport for one reason: a Server connected to one binds the
// classified revision (2026-07-28) the way the SDK's own HTTP entry binds its per-request servers. Every
// method that moves messages is overridden; the base class's single-exchange machinery is never used.
import type { ServerResponse } from "node:http";
import {
  type JSONRPCMessage,
  type MessageClassification,
  PerRequestHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { McpServerHooks } from "./create-mcp-server.ts";
import { ID_HEAD, type RpcId, type RpcMessage } from "./json-rpc.ts";
import type { PreparedResult } from "./tool-results.ts";

const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RpcId } =>
  "id" in m && ("result" in m || "error" in m);

/** Whether `result` is `prepared` as the SDK passes it on (validated copies of the wrappers, same parts). */
function isPrepared(result: Record<string, unknown>, prepared: PreparedResult): boolean {
  const content = result.content;
  if (!Array.isArray(content) || content.length !== 1) return false;
  const block = content[0] as Record<string, unknown>;
  if (block.type !== "text" || block.text !== prepared.text || Object.keys(block).length !== 2) return false;
  const sc = result.structuredContent as Record<string, unknown> | undefined;
  if (sc === prepared.structured) return true;
  if (typeof sc !== "object" || sc === null) return false;
  const keys = Object.keys(prepared.structured);
  return Object.keys(sc).length === keys.length && keys.every((k) => sc[k] === prepared.structured[k]);
}

const STRUCTURED = Buffer.from(',"structuredContent":');
const CLOSE = Buffer.from("}}");

/**
 * The JSON of `message` with the client's `id`, as chunks to write one after the other: the prepared bytes
 * go in as they are (no copy) when the result is `prepared`.
 */
function frameOf(message: JSONRPCMessage, id: RpcId, prepared?: PreparedResult): Buffer[] {
  const result = (message as { result?: Record<string, unknown> }).result;
  if (!prepared || !result || !isPrepared(result, prepared)) return [Buffer.from(JSON.stringify({ ...message, id }))];
  const { content: _c, structuredContent: _s, ...rest } = result;
  const others = JSON.stringify(rest);
  const open = others === "{}" ? "{" : `${others.slice(0, -1)},`;
  return [
    Buffer.from(`${ID_HEAD}${JSON.stringify(id)},"result":${open}"content":`),
    prepared.contentJson,
    STRUCTURED,
    prepared.structuredJson,
    CLOSE,
  ];
}

/**
 * Writes a 200 JSON answer made of `chunks` as one buffer. (Corked writes of the chunks, which spare the
 * copy, made the process's RSS grow by about 3 KB per request outside the JS heap in a 60,000-request soak;
 * one buffer per answer does not.)
 */
export function sendJsonChunks(res: ServerResponse, chunks: Buffer[]): void {
  let length = 0;
  for (const c of chunks) length += c.length;
  res.statusCode = 200;
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Content-Length", length);
  res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length));
}

/** One request's answer: its JSON (chunks), whether it is a JSON-RPC error, whether its result was a prepared one. */
export interface Answer {
  frame: Buffer[];
  error: boolean;
  /** The result is a tools/call result prepared from bytes (tool-results.ts), spliced into the frame. */
  prepared: boolean;
}

interface Waiting {
  /** The id the client gave the request. */
  id: RpcId;
  /** When it is answered -32603 if the server has not answered it. */
  deadline: number;
  resolve(answer: Answer): void;
  prepared?: PreparedResult;
}

/** 2025 traffic: no classification (as the SDK's own 2025 transports pass none). */
const LEGACY: MessageClassification = { era: "legacy" };

const NO_ANSWER = { code: -32603, message: "Internal error: the request got no answer" };

export class ExchangeTransport extends PerRequestHTTPServerTransport {
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();
  private readonly extra?: { classification: MessageClassification };
  private readonly timeoutMs: number;
  /** One timer for every waiting request (not one per request), running only while some wait. */
  private sweeper?: NodeJS.Timeout;

  /**
   * `classification`: the modern revision every message is served in (a server connected binds it).
   * `timeoutMs`: a request the server leaves unanswered (it should not happen: the route only lets
   * well-formed messages through) is answered -32603 after about this long rather than holding the connection.
   */
  constructor(classification?: MessageClassification, timeoutMs = 10_000) {
    super({ classification: classification ?? LEGACY, responseMode: "json" });
    if (classification) this.extra = { classification };
    this.timeoutMs = timeoutMs;
  }

  /** Answers -32603 every request waiting past `now` (all of them when the transport closes). */
  private sweep(now = Date.now()): void {
    for (const [own, w] of this.waiting) {
      if (w.deadline > now) continue;
      this.waiting.delete(own);
      w.resolve({ frame: frameOf({ jsonrpc: "2.0", id: own, error: NO_ANSWER }, w.id), error: true, prepared: false });
    }
    if (this.waiting.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** For createMcpServer: a tools/call result about to be sent was prepared from bytes. */
  readonly hooks: McpServerHooks = {
    prepared: (id, result) => {
      const w = this.waiting.get(id as number);
      if (w) w.prepared = result;
    },
  };

  override async start(): Promise<void> {}

  override async send(message: JSONRPCMessage): Promise<void> {
    // Server-to-client requests and notifications have no channel in JSON-response mode: dropped.
    if (!isResponse(message)) return;
    const w = this.waiting.get(message.id as number);
    if (!w) return;
    this.waiting.delete(message.id as number);
    const frame = frameOf(message, w.id, w.prepared);
    // frameOf serialises anything but a prepared result as one chunk.
    w.resolve({ frame, error: "error" in message, prepared: frame.length > 1 });
  }

  override async close(): Promise<void> {
    this.sweep(Number.POSITIVE_INFINITY); // answers every waiting request, and so stops the sweeper
    this.onclose?.();
  }

  override handleMessage(): never {
    throw new Error("ExchangeTransport serves through exchange()");
  }

  /** Requests waiting for their answer (0 between exchanges: nothing accumulates). */
  get pending(): number {
    return this.waiting.size;
  }

  /** Delivers the messages; resolves with the answers to its requests, in order (none for notifications). */
  async exchange(messages: RpcMessage[]): Promise<Answer[]> {
    const answers: Promise<Answer>[] = [];
    const deadline = Date.now() + this.timeoutMs;
    const inbound = messages.map((m) => {
      if (m.method === undefined || m.id === undefined) return m;
      const id = ++this.nextId;
      const client = m.id;
      answers.push(new Promise<Answer>((resolve) => this.waiting.set(id, { id: client, deadline, resolve })));
      return { ...m, id };
    });
    if (answers.length > 0 && !this.sweeper) {
      this.sweeper = setInterval(() => this.sweep(), Math.max(1, this.timeoutMs / 4));
      this.sweeper.unref();
    }
    for (const m of inbound) this.onmessage?.(m as JSONRPCMessage, this.extra);
    return Promise.all(answers);
  }
}
