// JSON Schemas for tools/list, generated from the zod schemas the REST endpoints use.
import * as z from "zod";

type JsonObjectSchema = { type: "object"; [k: string]: unknown };

/**
 * Strict clients (MCP Inspector --strict) warn on a type array such as `["string", "null"]`: rewrite it as
 * an `anyOf` of single types, which every JSON Schema validator reads the same way.
 */
function singleTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(singleTypes);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = singleTypes(v);
  if (Array.isArray(out.type)) {
    const { type, ...rest } = out;
    return { anyOf: (type as string[]).map((t) => ({ type: t })), ...rest };
  }
  return out;
}

/** MCP wants `type: "object"` at the top: a schema registered with an id comes back as a $ref, so inline it. */
export function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObjectSchema {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema: _ignored, $ref, $defs, ...rest } = generated;
  const defs = ($defs ?? {}) as Record<string, object>;
  const top = typeof $ref === "string" ? defs[$ref.replace("#/$defs/", "")] : rest;
  return singleTypes({ ...top, ...($defs ? { $defs } : {}) }) as JsonObjectSchema;
}
