// The shape of what arrives on POST /mcp, checked before any protocol work: JSON-RPC 2.0 says what a
// request, a notification and a response look like; anything else is -32600 Invalid Request.

export type RpcId = string | number;

export interface RpcMessage {
  jsonrpc: "2.0";
  id?: RpcId;
  method?: string;
  params?: Record<string, unknown>;
}

export interface RpcProblem {
  code: number;
  message: string;
  /** The request's id when it had a usable one (errors echo it), else null. */
  id: RpcId | null;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is RpcId => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

/** The id an error about `value` should echo. */
export const idOf = (value: unknown): RpcId | null => (isObject(value) && isId(value.id) ? value.id : null);

/** The members JSON-RPC 2.0 defines for each kind of message; another member makes the message invalid. */
export const REQUEST_MEMBERS = new Set(["jsonrpc", "id", "method", "params"]);
const RESPONSE_MEMBERS = new Set(["jsonrpc", "id", "result", "error"]);
const unknownMember = (value: Record<string, unknown>, known: Set<string>): string | undefined =>
  Object.keys(value).find((k) => !known.has(k));

/**
 * Why `value` is not a JSON-RPC 2.0 request, notification or response; undefined when it is one. A member the
 * specification does not define is refused here: the SDK would drop such a message without any answer.
 */
export function messageProblem(value: unknown): RpcProblem | undefined {
  const id = idOf(value);
  const invalid = (why: string): RpcProblem => ({ code: -32600, message: `Invalid Request: ${why}`, id });
  if (!isObject(value)) return invalid("expected a JSON-RPC 2.0 object");
  if (value.jsonrpc !== "2.0") return invalid('"jsonrpc" must be "2.0"');
  if ("id" in value && !isId(value.id)) return invalid('"id" must be a string or a finite number');
  if ("method" in value) {
    if (typeof value.method !== "string" || value.method === "") return invalid('"method" must be a non-empty string');
    if ("params" in value && !isObject(value.params)) return invalid('"params" must be an object');
    if ("result" in value || "error" in value) return invalid('a request has no "result" or "error"');
    const extra = unknownMember(value, REQUEST_MEMBERS);
    return extra === undefined ? undefined : invalid(`unknown member ${JSON.stringify(extra)}`);
  }
  if (!("id" in value)) return invalid('a message needs "method" (request or notification) or "id" (response)');
  if ("result" in value === "error" in value) return invalid('a response has exactly one of "result" and "error"');
  const extra = unknownMember(value, RESPONSE_MEMBERS);
  return extra === undefined ? undefined : invalid(`unknown member ${JSON.stringify(extra)}`);
}

export type Classified =
  | { ok: true; batch: false; message: RpcMessage }
  | { ok: true; batch: true; messages: RpcMessage[] }
  | { ok: false; problem: RpcProblem };

export function classifyBody(body: unknown): Classified {
  if (!Array.isArray(body)) {
    const problem = messageProblem(body);
    return problem ? { ok: false, problem } : { ok: true, batch: false, message: body as RpcMessage };
  }
  if (body.length === 0)
    return { ok: false, problem: { code: -32600, message: "Invalid Request: empty batch", id: null } };
  const ids = new Set<RpcId>();
  for (const item of body) {
    const problem = messageProblem(item);
    if (problem) return { ok: false, problem: { ...problem, message: `${problem.message} (in the batch)` } };
    const id = (item as RpcMessage).id;
    if (id !== undefined && (item as RpcMessage).method !== undefined) {
      if (ids.has(id))
        return { ok: false, problem: { code: -32600, message: `Invalid Request: id ${id} twice in the batch`, id } };
      ids.add(id);
    }
  }
  return { ok: true, batch: true, messages: body as RpcMessage[] };
}

/** Revisions that allow JSON-RPC batches: only 2025-03-26 (2025-06-18 removed them; 2026-07-28 has none). */
export const BATCH_REVISIONS = new Set(["2025-03-26"]);
