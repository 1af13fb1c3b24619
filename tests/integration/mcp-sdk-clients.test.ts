// The official TypeScript SDK's clients, v1 (@modelcontextprotocol/sdk, what most MCP hosts ship) and v2
// (@modelcontextprotocol/client), over Streamable HTTP with a 2025 session, run after run from one address the
// way hosts use them: initialize, list and call every tool, read every resource, get every prompt, close. Neither
// close() sends DELETE, so each run leaves its session behind: more than twice the per-address cap of runs, with
// the default settings, must all succeed (the address's least recently used sessions end to admit new ones).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TOOL_LIST } from "../../sidecar/mcp/tools/index.ts";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { loadConfig } from "../../src/config.ts";
import { buildSample } from "../helpers/build.ts";
import { mcpAnswers, since } from "../helpers/mcp-answers.ts";
import { rpc } from "../helpers/mcp-http.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";
import { catalogValues, type InputSchema, planCalls } from "../helpers/tool-arguments.ts";

const CAP = loadConfig({}).MCP_MAX_SESSIONS_PER_CLIENT;
const RUNS = 2 * CAP + 1;

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

/** What a run needs of either SDK's client; both have these methods under these names. */
interface SdkClient {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listResources(): Promise<{ resources: { uri: string; mimeType?: string }[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; text?: string; mimeType?: string }[] }>;
  listPrompts(): Promise<{ prompts: { name: string }[] }>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<{ messages: unknown[] }>;
  close(): Promise<void>;
}

interface Sdk {
  name: string;
  /** A connected client whose requests go through `fetch`, and its session id. */
  connect(url: URL, fetch: typeof globalThis.fetch): Promise<{ client: SdkClient; sessionId: () => string }>;
}

const SDKS: Sdk[] = [
  {
    name: "SDK v1 (@modelcontextprotocol/sdk)",
    async connect(url, fetch) {
      const transport = new TransportV1(url, { fetch });
      const client = new ClientV1({ name: "sdk-v1-test", version: "1.0.0" });
      await client.connect(transport);
      return { client: client as unknown as SdkClient, sessionId: () => transport.sessionId ?? "" };
    },
  },
  {
    name: "SDK v2 (@modelcontextprotocol/client), 2025 session",
    async connect(url, fetch) {
      const transport = new TransportV2(url, { fetch });
      const client = new ClientV2(
        { name: "sdk-v2-test", version: "1.0.0" },
        { versionNegotiation: { mode: "legacy" } },
      );
      await client.connect(transport);
      return { client: client as unknown as SdkClient, sessionId: () => transport.sessionId ?? "" };
    },
  },
];

let sidecar: RunningSidecar;
let known: Record<string, unknown>;
before(async () => {
  sidecar = await startTestSidecar(await buildSample());
  const { client } = await SDKS[0].connect(new URL(`${sidecar.url}/mcp`), fetch);
  known = await catalogValues(async (name, args) => {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    return result.structuredContent ?? {};
  });
  await client.close();
});
after(() => sidecar.close());

/** One host session: every tool with its required arguments, every resource, every prompt. */
async function oneRun(client: SdkClient): Promise<void> {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_LIST.map((t) => t.name).sort());
  for (const t of tools) {
    const { required } = planCalls(t.name, t.inputSchema as InputSchema, known);
    const result = (await client.callTool({ name: t.name, arguments: required })) as ToolResult;
    assert.notEqual(result.isError, true, `${t.name}: ${result.content[0]?.text}`);
    assert.deepEqual(JSON.parse(result.content[0].text ?? ""), result.structuredContent, t.name);
  }
  const { resources } = await client.listResources();
  const { resourceTemplates } = await client.listResourceTemplates();
  const uris = [
    ...resources.map((r) => r.uri),
    ...resourceTemplates.map((t) => t.uriTemplate.replace(/\{[^}]+\}/, encodeURIComponent(String(known.id)))),
  ];
  assert.ok(uris.length >= 5, uris.join(" "));
  for (const uri of uris) {
    const { contents } = await client.readResource({ uri });
    assert.equal(contents[0].uri, uri);
    if (contents[0].mimeType === "application/json") JSON.parse(contents[0].text ?? "");
  }
  const { prompts } = await client.listPrompts();
  const promptArgs: Record<string, Record<string, string>> = {
    summarize_technician_feedback: { technician: String(known.technician) },
    draft_owner_response: { review_id: String(known.id) },
  };
  assert.deepEqual(prompts.map((p) => p.name).sort(), Object.keys(promptArgs).sort());
  for (const p of prompts) {
    const { messages } = await client.getPrompt({ name: p.name, arguments: promptArgs[p.name] });
    assert.ok(messages.length > 0, p.name);
  }
}

test("SDK v2 with versionNegotiation auto takes 2026-07-28 (no session) and serves a whole run", async () => {
  const client = new ClientV2({ name: "sdk-v2-auto", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  const transport = new TransportV2(new URL(`${sidecar.url}/mcp`));
  await client.connect(transport);
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
    assert.equal(transport.sessionId, undefined);
    await oneRun(client as unknown as SdkClient);
  } finally {
    await client.close();
  }
});

for (const sdk of SDKS) {
  test(`${sdk.name}: ${RUNS} runs from one address that close without DELETE all succeed`, async () => {
    const before = await mcpAnswers(sidecar.url);
    const methods = new Set<string>();
    const recording: typeof fetch = (input, init) => {
      methods.add(init?.method ?? (input instanceof Request ? input.method : "GET"));
      return fetch(input, init);
    };
    const sessions: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { client, sessionId } = await sdk.connect(new URL(`${sidecar.url}/mcp`), recording);
      try {
        await oneRun(client);
        sessions.push(sessionId());
      } finally {
        await client.close();
      }
    }
    assert.ok(!methods.has("DELETE"), `close() sends no DELETE (sent: ${[...methods].join(", ")})`);
    assert.equal(new Set(sessions).size, RUNS, "a session per run");
    // Only the client's own probes are refused: GET /mcp (405: no SSE stream is offered).
    const answers = since(before, await mcpAnswers(sidecar.url));
    assert.ok(answers["POST 200"] > RUNS * 10, JSON.stringify(answers));
    assert.deepEqual(
      Object.keys(answers).filter((k) => !["POST 200", "POST 202", "GET 405"].includes(k)),
      [],
    );
    // At the cap the least recently used sessions ended for newer ones: the oldest is gone, the newest live.
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const headers = (id: string) => ({ "Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-11-25" });
    assert.equal((await rpc(sidecar.url, list, headers(sessions[0]))).res.status, 404, "the oldest session ended");
    assert.equal((await rpc(sidecar.url, list, headers(sessions[RUNS - 1]))).res.status, 200, "the newest is live");
  });
}
