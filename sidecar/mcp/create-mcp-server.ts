// One MCP server per session, over the current build. Tools, resources and prompts are read-only.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { parseQuery } from "../../src/domain/search/issues.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import { getPrompt, PROMPTS } from "./prompts.ts";
import { REVIEW_TEMPLATE, readResource, staticResources } from "./resources.ts";
import { TOOLS } from "./tools/index.ts";
import { READ_ONLY } from "./tools/tool.ts";

type JsonObjectSchema = { type: "object"; [k: string]: unknown };

/** MCP wants `type: "object"` at the top: a schema registered with an id comes back as a $ref, so inline it. */
const jsonSchema = (schema: z.ZodType, io: "input" | "output"): JsonObjectSchema => {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema: _ignored, $ref, $defs, ...rest } = generated;
  const defs = ($defs ?? {}) as Record<string, object>;
  const top = typeof $ref === "string" ? defs[$ref.replace("#/$defs/", "")] : rest;
  return { ...top, ...($defs ? { $defs } : {}) } as JsonObjectSchema;
};

// Generated once: the schemas never change while the process runs.
const TOOL_LIST = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: jsonSchema(t.input, "input"),
  outputSchema: jsonSchema(t.output, "output"),
  annotations: { title: t.title, ...READ_ONLY },
}));

export function createMcpServer(deps: { store: BuildStore; baseUrl: string; version: string }): Server {
  const server = new Server(
    { name: "reviews-publication-service", title: "Verified customer reviews", version: deps.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions:
        "Read-only access to one business's verified customer reviews. Start with get_business for ids, then search_reviews or get_insights.",
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));

  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool)
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; tools/list names them`);
    const args = parseQuery(tool.input, (request.params.arguments ?? {}) as Record<string, unknown>);
    const outcome = args.ok ? tool.run(deps.store.current(), args.value) : args;
    if (!outcome.ok) {
      // No structuredContent here: clients validate it against the tool's outputSchema, which describes success.
      return { isError: true, content: [{ type: "text", text: JSON.stringify({ issues: outcome.issues }) }] };
    }
    const value = outcome.value as Record<string, unknown>;
    return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: staticResources(deps.baseUrl).map(({ path: _p, ...r }) => r),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: REVIEW_TEMPLATE,
        name: "review",
        title: "One review",
        description: "A verified review by id, as JSON",
        mimeType: "application/json",
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    readResource(deps.store.current(), deps.baseUrl, request.params.uri),
  );

  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(deps.store.current(), request.params.name, request.params.arguments),
  );
  return server;
}
