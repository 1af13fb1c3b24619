// The AI SDK's MCP client (@ai-sdk/mcp), an agent framework's adapter, against the sidecar: it turns tools/list into
// callable tools, and every tool is called with each argument value its input schema offers (examples, enum values,
// defaults, bounds; catalog names and ids for the rest). Results are read back both ways the SDK offers: the raw
// CallToolResult (text block parsed as JSON, equal to structuredContent) and the SDK's own validation of
// structuredContent against the tool's zod output schema, the one the server builds its outputSchema from.
// Once with its default discovery (server/discover, so the stateless 2026-07-28 revision), once with a 2025 session.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { TOOL_LIST, TOOLS } from "../../sidecar/mcp/tools/index.ts";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { buildSample } from "../helpers/build.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";
import { catalogValues, type InputSchema, planCalls } from "../helpers/tool-arguments.ts";

let sidecar: RunningSidecar;
before(async () => {
  sidecar = await startTestSidecar(await buildSample());
});
after(() => sidecar.close());

interface RawResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

/** The structured result, after checking it is no error and that its text block is the same JSON. */
function parsed(name: string, args: Record<string, unknown>, result: RawResult): Record<string, unknown> {
  const what = `${name} ${JSON.stringify(args)}`;
  assert.notEqual(result.isError, true, `${what}: ${result.content[0]?.text}`);
  const text = result.content.find((c) => c.type === "text")?.text;
  assert.ok(text, `${what}: a text block`);
  assert.deepEqual(JSON.parse(text), result.structuredContent, `${what}: text block = structuredContent`);
  return result.structuredContent as Record<string, unknown>;
}

const ERAS = [
  { era: "2026-07-28 (discovery)", discovery: true, version: "2026-07-28" },
  { era: "2025 session", discovery: false, version: "2025-11-25" },
];

for (const { era, discovery, version } of ERAS) {
  describe(`@ai-sdk/mcp, ${era}`, () => {
    let client: MCPClient;
    before(async () => {
      client = await createMCPClient({
        transport: { type: "http", url: `${sidecar.url}/mcp` },
        protocolVersionDiscovery: discovery,
        clientName: "ai-sdk-test",
      });
    });
    after(() => client?.close());

    test("it negotiated the expected revision", () => {
      assert.equal(client.initializeResult.protocolVersion, version);
    });

    test("its tool set holds every tool the server lists, with titles and read-only annotations", async () => {
      const tools = await client.tools();
      assert.deepEqual(Object.keys(tools).sort(), TOOL_LIST.map((t) => t.name).sort());
      for (const [name, tool] of Object.entries(tools)) {
        assert.ok(tool.description && tool.description.length > 40, name);
        const annotations = (tool as { metadata?: { annotations?: { readOnlyHint?: boolean } } }).metadata?.annotations;
        assert.equal(annotations?.readOnlyHint, true, name);
      }
    });

    test("every tool, called through the SDK's tool set with each argument value its schema offers", async () => {
      const tools = await client.tools();
      const { tools: listed } = await client.listTools();
      const execute = async (name: string, args: Record<string, unknown>) =>
        parsed(
          name,
          args,
          (await tools[name].execute(args, { toolCallId: name, messages: [], context: {} })) as RawResult,
        );
      const known = await catalogValues(execute);
      let calls = 0;
      for (const { name, inputSchema } of listed) {
        const plan = planCalls(name, inputSchema as InputSchema, known);
        const first = await execute(name, plan.required);
        calls++;
        for (const { args } of plan.withOptional) {
          await execute(name, args);
          calls++;
        }
        // A cursor is no example: it comes from the page before, and pages on with the same arguments.
        const unfilled = plan.unfilled.filter((p) => p !== "cursor");
        assert.deepEqual(unfilled, [], `${name}: arguments no schema example or catalog value covers`);
        if (plan.unfilled.includes("cursor") && typeof first.next_cursor === "string") {
          const next = await execute(name, { ...plan.required, cursor: first.next_cursor });
          assert.ok(Array.isArray(next.reviews) && next.reviews.length > 0, `${name}: the next page`);
          calls++;
        }
      }
      assert.ok(calls > listed.length * 2, `${calls} calls`);
    });

    test("tools with the project's zod schemas: the SDK validates each structured result against them", async () => {
      const schemas = Object.fromEntries(TOOLS.map((t) => [t.name, { inputSchema: t.input, outputSchema: t.output }]));
      const typed = await client.tools({ schemas });
      const known = await catalogValues(async (name, args) =>
        parsed(name, args, (await client.callTool({ name, arguments: args })) as RawResult),
      );
      for (const t of TOOL_LIST) {
        const { required } = planCalls(t.name, t.inputSchema as InputSchema, known);
        const value = (await typed[t.name].execute(required, {
          toolCallId: t.name,
          messages: [],
          context: {},
        })) as Record<string, unknown>;
        assert.ok(value && typeof value === "object" && !("isError" in value), `${t.name}: ${JSON.stringify(value)}`);
      }
    });

    test("a misspelt technician gets an isError result that names the right one", async () => {
      const { technician } = await catalogValues(async (name, args) =>
        parsed(name, args, (await client.callTool({ name, arguments: args })) as RawResult),
      );
      const misspelt = String(technician).slice(0, -1);
      const result = (await client.callTool({
        name: "search_reviews",
        arguments: { mentions_technician: misspelt },
      })) as RawResult;
      assert.equal(result.isError, true);
      assert.match(result.content[0].text ?? "", new RegExp(`did you mean.*${technician}`, "i"));
    });
  });
}
