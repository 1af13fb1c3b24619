// The API reference page's model: the OpenAPI document (renderOpenApi) read as a list of operations by tag, each with
// its parameters, request body and answers in words, so the page is rendered on the server with no renderer script.

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  items?: Schema;
};
type Media = { schema?: Schema; example?: unknown };
type RawOperation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    description?: string;
    schema?: Schema;
    example?: unknown;
  }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, Media> }>;
};
export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, RawOperation>>;
  components: { responses?: Record<string, { description?: string; content?: Record<string, Media> }> };
};

export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  parameters: { name: string; in: string; required: boolean; description: string; schema: string; example: string }[];
  requestBody: { type: string; schema: string }[];
  /**
   * `example`: the first example of an answer's media types, as text (JSON indented); pages' HTML is left out, and
   * an answer shared by many operations (a `$ref`) shows it at its first operation only.
   */
  responses: { status: string; description: string; body: string; example?: { type: string; text: string } }[];
}

const METHODS = ["get", "post", "delete"];
/** Text that ends as a sentence, so that what the page adds after it reads on. */
const sentence = (text: string) => (text === "" || /[.!?)]$/.test(text) ? text : `${text}.`);
const shown = (v: unknown) => (v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v));

/** A schema in a few words: its component's name, or its type and bounds. */
export function schemaText(s: Schema | undefined): string {
  if (!s) return "";
  if (s.$ref) return s.$ref.split("/").pop() as string;
  const type = Array.isArray(s.type) ? s.type.join(" or ") : (s.type ?? "any");
  const parts = [s.type === "array" && s.items ? `array of ${schemaText(s.items)}` : type];
  if (s.enum) parts.push(`one of ${s.enum.map(shown).join(", ")}`);
  if (s.format) parts.push(s.format);
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(`${s.minimum ?? "…"} to ${s.maximum ?? "…"}`);
  if (s.minLength !== undefined || s.maxLength !== undefined) {
    parts.push(`${s.minLength ?? 0} to ${s.maxLength ?? "…"} characters`);
  }
  if (s.pattern) parts.push(`matching ${s.pattern}`);
  if (s.default !== undefined) parts.push(`default ${shown(s.default)}`);
  return parts.join(", ");
}

function exampleOf(content: Record<string, Media> | undefined) {
  for (const [type, m] of Object.entries(content ?? {})) {
    if (m.example === undefined || type === "text/html") continue;
    return { type, text: typeof m.example === "string" ? m.example : JSON.stringify(m.example, null, 2) };
  }
  return undefined;
}

const bodyText = (content: Record<string, Media> | undefined) =>
  Object.entries(content ?? {})
    .map(([type, m]) => `${type}${m.schema ? ` (${schemaText(m.schema)})` : ""}`)
    .join("; ");

/** The document's operations grouped by their first tag, in the document's order of tags and paths. */
export function referenceSections(doc: OpenApiDocument) {
  const grouped = (doc.tags ?? []).map((t) => ({ ...t, raw: [] as [string, string, RawOperation][] }));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      (grouped.find((s) => s.name === op.tags?.[0]) ?? grouped[0]).raw.push([path, method, op]);
    }
  }
  // In the page's order, so a shared answer's example is shown where a reader meets it first.
  const shownRefs = new Set<string>();
  const operation = ([path, method, op]: [string, string, RawOperation]): ReferenceOperation => ({
    id: op.operationId,
    method: method.toUpperCase(),
    path,
    summary: op.summary ?? "",
    description: op.description ?? "",
    parameters: (op.parameters ?? []).map((p) => ({
      name: p.name,
      in: p.in,
      required: Boolean(p.required),
      description: sentence(p.description ?? ""),
      schema: schemaText(p.schema),
      example: shown(p.example ?? (p.schema as { examples?: unknown[] } | undefined)?.examples?.[0]),
    })),
    requestBody: Object.entries(op.requestBody?.content ?? {}).map(([type, m]) => ({
      type,
      schema: schemaText(m.schema),
    })),
    responses: Object.entries(op.responses).map(([status, r]) => {
      const resolved = r.$ref ? (doc.components.responses?.[r.$ref.split("/").pop() as string] ?? r) : r;
      const example = r.$ref && shownRefs.has(r.$ref) ? undefined : exampleOf(resolved.content);
      if (r.$ref) shownRefs.add(r.$ref);
      return { status, description: sentence(resolved.description ?? ""), body: bodyText(resolved.content), example };
    }),
  });
  return grouped.filter((s) => s.raw.length > 0).map(({ raw, ...tag }) => ({ ...tag, operations: raw.map(operation) }));
}
