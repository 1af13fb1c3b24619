// JSON Schemas generated from the zod schemas (z.toJSONSchema), cleaned for the documents that carry them (the
// OpenAPI document, MCP tools/list): zod writes a whole number's bounds as ±Number.MAX_SAFE_INTEGER when the
// schema sets none, which says nothing to a reader or a client and bloats every integer; those bounds go.

const UNBOUNDED = new Set([Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]);
const BOUNDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

/** A copy of `node` without the bounds zod adds to integers that have none. */
export function withoutUnboundedLimits<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withoutUnboundedLimits) as T;
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (BOUNDS.includes(k) && typeof v === "number" && UNBOUNDED.has(v)) continue;
    out[k] = withoutUnboundedLimits(v);
  }
  return out as T;
}
