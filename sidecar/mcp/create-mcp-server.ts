// One low-level MCP server over the current build. It holds no state between requests (each one reads the
// build current when it arrives), so any instance can answer any request.
import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { MCP_REVISIONS } from "../../src/domain/mcp-discovery.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import { getPrompt, PROMPTS } from "./prompts.ts";
import { listResources, readResource, resourceTemplates } from "./resources.ts";
import { callToolResult, toolResult } from "./tool-results.ts";
import { TOOL_LIST, TOOLS } from "./tools/index.ts";

export interface McpServerDeps {
  store: BuildStore;
  baseUrl: string;
  version: string;
}

const INSTRUCTIONS =
  "Read-only access to one business's verified customer reviews. Start with get_business for ids, then search_reviews or get_insights.";

const failure = (issues: unknown) =>
  // No structuredContent on failure: clients validate it against the outputSchema, which describes success.
  ({ isError: true, content: [{ type: "text" as const, text: JSON.stringify({ issues }) }] });

export function createMcpServer(deps: McpServerDeps): Server {
  const server = new Server(
    { name: "reviews-publication-service", title: "Verified customer reviews", version: deps.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: INSTRUCTIONS,
      supportedProtocolVersions: MCP_REVISIONS,
    },
  );

  server.setRequestHandler("tools/list", () => ({ tools: TOOL_LIST }));
  server.setRequestHandler("tools/call", (request) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool ${request.params.name}; tools/list names them`,
      );
    const raw = (request.params.arguments ?? {}) as Record<string, unknown>;
    const result = toolResult(deps.store.current(), tool, raw);
    if ("issues" in result) return failure(result.issues);
    return callToolResult(result);
  });
  server.setRequestHandler("resources/list", () => ({ resources: listResources(deps.store.current(), deps.baseUrl) }));
  server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates }));
  server.setRequestHandler("resources/read", (request) =>
    readResource(deps.store.current(), deps.baseUrl, request.params.uri),
  );
  server.setRequestHandler("prompts/list", () => ({ prompts: PROMPTS }));
  server.setRequestHandler("prompts/get", (request) =>
    getPrompt(deps.store.current(), request.params.name, request.params.arguments),
  );
  return server;
}
