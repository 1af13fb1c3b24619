// The params of the methods /mcp serves, checked before the SDK sees them: the SDK answers a bad shape
// with a raw zod dump (and resources/read with -32603), where a client deserves -32602 and one line per
// problem naming the field.
import * as z from "zod";
import { isObject, type RpcMessage, type RpcProblem } from "./json-rpc.ts";

const meta = { _meta: z.record(z.string(), z.unknown()).optional() };
const paginated = z.looseObject({ ...meta, cursor: z.string().optional() });

const PARAMS: Record<string, z.ZodType> = {
  initialize: z.looseObject({
    ...meta,
    protocolVersion: z.string(),
    capabilities: z.record(z.string(), z.unknown()),
    clientInfo: z.looseObject({ name: z.string(), version: z.string() }),
  }),
  "tools/list": paginated,
  "resources/list": paginated,
  "resources/templates/list": paginated,
  "prompts/list": paginated,
  "tools/call": z.looseObject({ ...meta, name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }),
  "resources/read": z.looseObject({ ...meta, uri: z.string() }),
  "prompts/get": z.looseObject({ ...meta, name: z.string(), arguments: z.record(z.string(), z.string()).optional() }),
};

/** The usual tools/call params, recognised without zod (the schema above stays the word on anything else). */
export const plainToolsCall = (p: Record<string, unknown>) =>
  typeof p.name === "string" &&
  (p.arguments === undefined || isObject(p.arguments)) &&
  (p._meta === undefined || isObject(p._meta));

const describe = (issue: z.core.$ZodIssue) =>
  `params.${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`;

/**
 * -32602 with a readable message when a served method's params have the wrong shape; undefined otherwise.
 * 2026-07-28 has no initialize (the SDK answers it -32601), so that check is for the 2025 revisions only.
 */
export function paramsProblem(message: RpcMessage, era: "modern" | "legacy" = "legacy"): RpcProblem | undefined {
  if (era === "modern" && message.method === "initialize") return undefined;
  if (message.method === "tools/call" && message.params && plainToolsCall(message.params)) return undefined;
  const schema =
    message.method !== undefined && message.id !== undefined && Object.hasOwn(PARAMS, message.method)
      ? PARAMS[message.method]
      : undefined;
  if (!schema) return undefined;
  const parsed = schema.safeParse(message.params ?? {});
  if (parsed.success) return undefined;
  return {
    code: -32602,
    message: `Invalid params for ${message.method}: ${parsed.error.issues.map(describe).join("; ")}`,
    id: message.id ?? null,
  };
}
