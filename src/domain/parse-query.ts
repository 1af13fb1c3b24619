import type * as z from "zod";
import type { Issue } from "./schemas/api.ts";

const unknownParameter = (k: string): Issue => ({
  path: [k],
  code: "unknown_parameter",
  message: `unknown parameter ${k}`,
});

/** zod issues -> the published `issues` shape, one issue per parameter problem. */
export function toIssues(error: z.ZodError): Issue[] {
  return error.issues.flatMap((i): Issue[] => {
    if (i.code === "unrecognized_keys") return i.keys.map(unknownParameter);
    return [{ path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)), code: i.code, message: i.message }];
  });
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/**
 * Validates a raw query (string values; arrays where a parameter repeats) against a schema, with the path's own
 * parameters (`pathParams`, validated by the same schema). A repeated parameter is an issue of its own rather than a
 * silent pick of one value; a query parameter named like a path parameter is unknown (the path's value is the one).
 */
export function parseQuery<S extends z.ZodType>(
  schema: S,
  raw: Record<string, unknown>,
  pathParams: Record<string, string> = {},
): Parsed<z.output<S>> {
  const issues: Issue[] = Object.keys(pathParams)
    .filter((k) => Object.hasOwn(raw, k))
    .map(unknownParameter);
  // No prototype: a parameter named __proto__ must become a key (and so an unknown parameter), not a prototype.
  const single: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(raw)) {
    if (Array.isArray(v))
      issues.push({ path: [k], code: "repeated_parameter", message: `parameter ${k} is given more than once` });
    else single[k] = v;
  }
  const parsed = schema.safeParse(Object.assign(single, pathParams));
  if (!parsed.success) issues.push(...toIssues(parsed.error));
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: (parsed as { data: z.output<S> }).data };
}
