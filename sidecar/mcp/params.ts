// The params of the methods /mcp serves, checked before the SDK sees them: the SDK answers a bad shape
// with a raw zod dump (and resources/read with -32603), where a client deserves -32602 and one line per
// problem naming the field. On the 2025 revisions a request whose _meta the SDK's own schema refuses (a
// progressToken that is not a string or an integer, say) is never answered by the SDK's transport at all, so
// every request's _meta is checked here, with the SDK's schemas (@modelcontextprotocol/core) so that the two
// cannot disagree.
import { ClientCapabilitiesSchema, ImplementationSchema, RequestMetaSchema } from "@modelcontextprotocol/core";
import * as z from "zod";
import type { RpcId, RpcMessage, RpcProblem } from "./json-rpc.ts";

const meta = { _meta: z.record(z.string(), z.unknown()).optional() };
/** What the SDK's transport asks of every 2025 request's params before a handler runs. */
const legacyRequest = z.looseObject({ _meta: RequestMetaSchema.optional() });
const paginated = z.looseObject({ ...meta, cursor: z.string().optional() });

const PARAMS: Record<string, z.ZodType> = {
  initialize: z.looseObject({
    ...meta,
    protocolVersion: z.string(),
    capabilities: ClientCapabilitiesSchema,
    clientInfo: ImplementationSchema,
  }),
  "tools/list": paginated,
  "resources/list": paginated,
  "resources/templates/list": paginated,
  "prompts/list": paginated,
  "tools/call": z.looseObject({ ...meta, name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }),
  "resources/read": z.looseObject({ ...meta, uri: z.string() }),
  "prompts/get": z.looseObject({ ...meta, name: z.string(), arguments: z.record(z.string(), z.string()).optional() }),
};

const describe = (issue: z.core.$ZodIssue) =>
  `params.${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`;

/**
 * -32602 with a readable message when a served method's params have the wrong shape, or (2025 revisions) any
 * request's _meta does; undefined otherwise. 2026-07-28 has no initialize (the SDK answers it -32601), so that
 * check is for the 2025 revisions only.
 */
export function paramsProblem(message: RpcMessage, era: "modern" | "legacy" = "legacy"): RpcProblem | undefined {
  if (message.method === undefined || message.id === undefined) return undefined;
  const problem = (issues: z.core.$ZodIssue[]): RpcProblem => ({
    code: -32602,
    message: `Invalid params for ${message.method}: ${issues.map(describe).join("; ")}`,
    id: message.id as RpcId,
  });
  const params = message.params ?? {};
  // 2026-07-28's handler answers a bad _meta itself (400, -32600).
  if (era === "legacy" && Object.hasOwn(params, "_meta")) {
    const checked = legacyRequest.safeParse(params);
    if (!checked.success) return problem(checked.error.issues);
  }
  if (era === "modern" && message.method === "initialize") return undefined;
  const schema = Object.hasOwn(PARAMS, message.method) ? PARAMS[message.method] : undefined;
  const parsed = schema?.safeParse(params);
  return parsed && !parsed.success ? problem(parsed.error.issues) : undefined;
}
