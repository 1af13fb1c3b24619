// JSON Schemas for tools/list, generated from the zod schemas the REST endpoints use.
import * as z from "zod";
import { withoutUnboundedLimits } from "../../../src/domain/json-schema.ts";

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

/**
 * MCP wants `type: "object"` at the top: a schema registered with an id comes back as a $ref, so it is inlined
 * (and its definition dropped unless something else refers to it).
 */
export function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObjectSchema {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema: _ignored, $ref, $defs, ...rest } = generated;
  const defs = { ...(($defs ?? {}) as Record<string, object>) };
  const rootId = typeof $ref === "string" ? $ref.replace("#/$defs/", "") : undefined;
  const top = rootId ? defs[rootId] : rest;
  if (rootId) {
    const others = { ...defs };
    delete others[rootId];
    if (!JSON.stringify([top, others]).includes(`"#/$defs/${rootId}"`)) delete defs[rootId];
  }
  // Outputs name the shared records (a review, the business) rather than spell them out in every tool: tools/list
  // stays small, and the records are described once, in the OpenAPI document's components.
  if (io === "output")
    return singleTypes(withoutUnboundedLimits(namedRefs(withoutDescriptions(top)))) as JsonObjectSchema;
  const withDefs = Object.keys(defs).length > 0 ? { ...top, $defs: defs } : top;
  return singleTypes(withoutUnboundedLimits(withDefs)) as JsonObjectSchema;
}

/** Outputs' field descriptions are the OpenAPI document's; the tool's description says what it returns. */
function withoutDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDescriptions);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).flatMap(([k, v]) => {
      if (k === "description") return [];
      // Under `properties` the keys are field names (a field may be called "description").
      if (k === "properties" && v && typeof v === "object")
        return [[k, Object.fromEntries(Object.entries(v).map(([f, sub]) => [f, withoutDescriptions(sub)]))]];
      return [[k, withoutDescriptions(v)]];
    }),
  );
}

/** Every `$ref` to a definition as an object schema that names it. */
function namedRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(namedRefs);
  if (!node || typeof node !== "object") return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && ref.startsWith("#/$defs/"))
    return { type: "object", description: `A ${ref.slice(8)} record (OpenAPI components/schemas)` };
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, namedRefs(v)]));
}
