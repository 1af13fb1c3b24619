// Raw HTTP to /mcp for protocol tests: a legacy session, modern requests with the _meta envelope.
export const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

export interface RpcReply {
  res: Response;
  text: string;
  json: { jsonrpc?: string; id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };
}

export async function rpc(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RpcReply> {
  const res = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { res, text, json: text ? JSON.parse(text) : undefined };
}

/** A 2026-07-28 request: the envelope in params._meta and the routing headers the revision standardises. */
export function modern(url: string, id: number, method: string, params: Record<string, unknown> = {}) {
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  return rpc(
    url,
    { jsonrpc: "2.0", id, method, params: { ...params, _meta: MODERN_META } },
    { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, ...(name ? { "Mcp-Name": name } : {}) },
  );
}

/** initialize (+ notifications/initialized unless `initialized: false`); returns the headers to send after. */
export async function legacySession(
  url: string,
  version = "2025-11-25",
  opts: { initialized?: boolean } = {},
): Promise<Record<string, string>> {
  const init = await rpc(url, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  const id = init.res.headers.get("mcp-session-id");
  if (!id) throw new Error(`initialize answered ${init.res.status} ${init.text}`);
  const headers = { "Mcp-Session-Id": id, "MCP-Protocol-Version": version };
  if (opts.initialized !== false) await rpc(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  return headers;
}
