// Renders the docs' reference tables from the zod schemas, so the docs cannot drift from what the build and the
// sidecar accept. `npm run docs` writes them between markers; tests/unit/docs-tables.test.ts fails when they differ.
import * as z from "zod";
import { ConfigSchema } from "../../src/config.ts";
import { BusinessContent, ReviewContent } from "../../src/domain/schemas/content.ts";
import { BUSINESS_NOTES, CONFIG_NOTES, REVIEW_NOTES } from "./field-notes.ts";

type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  minItems?: number;
  default?: unknown;
  example?: unknown;
};

export type FieldRow = { path: string; type: string; required: boolean; rule: string };

function resolve(node: JsonSchema, root: JsonSchema): JsonSchema {
  if (!node.$ref) return node;
  const name = node.$ref.replace("#/$defs/", "");
  const target = root.$defs?.[name];
  if (!target) throw new Error(`unresolved ${node.$ref}`);
  return resolve(target, root);
}

function typeName(node: JsonSchema, root: JsonSchema): string {
  const n = resolve(node, root);
  if (n.type === "array" && n.items) return `array of ${typeName(n.items, root)}`;
  if (n.format === "date") return "date";
  if (n.format === "date-time") return "date-time";
  if (n.format === "uri") return "URL";
  if (n.format === "email") return "email";
  if (n.type === "integer") return "whole number";
  return n.type ?? "any";
}

function rule(node: JsonSchema, root: JsonSchema): string {
  const n = resolve(node, root);
  const parts: string[] = [];
  if (n.enum) parts.push(`one of ${n.enum.map((v) => `\`${String(v)}\``).join(", ")}`);
  if (n.format === "date") parts.push("`YYYY-MM-DD`, a real calendar date");
  if (n.format === "date-time") parts.push("RFC 3339 with an offset, e.g. `2025-06-01T14:02:11Z`");
  if (n.format === "uri") parts.push("absolute URL");
  if (n.pattern && !n.format) parts.push(`matches \`${n.pattern}\``);
  const max = n.maximum !== undefined && n.maximum < Number.MAX_SAFE_INTEGER ? n.maximum : undefined;
  const min = n.minimum ?? (n.exclusiveMinimum === 0 ? 1 : undefined);
  if (min !== undefined && max !== undefined) parts.push(`${min} to ${max}`);
  else if (min !== undefined) parts.push(`at least ${min}`);
  else if (max !== undefined) parts.push(`at most ${max}`);
  if (n.minLength) parts.push(n.minLength === 1 ? "not empty" : `at least ${n.minLength} characters`);
  if (n.minItems) parts.push(`at least ${n.minItems} ${n.minItems === 1 ? "entry" : "entries"}`);
  if (n.type === "array" && n.items) {
    const inner = rule(n.items, root);
    if (inner && resolve(n.items, root).type !== "object") parts.push(`each: ${inner}`);
  }
  return parts.join("; ");
}

/** Every field of an object schema, nested objects and arrays of objects flattened to `a.b` and `a[].b`. */
export function fieldRows(schema: z.ZodType): FieldRow[] {
  const root = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const rows: FieldRow[] = [];
  const walk = (node: JsonSchema, prefix: string) => {
    const n = resolve(node, root);
    for (const [key, child] of Object.entries(n.properties ?? {})) {
      const path = prefix + key;
      const c = resolve(child, root);
      rows.push({
        path,
        type: typeName(child, root),
        required: n.required?.includes(key) ?? false,
        rule: rule(child, root),
      });
      if (c.type === "object" && c.properties) walk(c, `${path}.`);
      if (c.type === "array" && c.items && resolve(c.items, root).type === "object") walk(c.items, `${path}[].`);
    }
  };
  walk(root, "");
  return rows;
}

const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");

function fieldTable(schema: z.ZodType, notes: Record<string, string>): string {
  const rows = fieldRows(schema);
  const lines = ["| Field | Type | Required | Rule | Meaning |", "|---|---|---|---|---|"];
  for (const r of rows) {
    lines.push(
      `| \`${r.path}\` | ${r.type} | ${r.required ? "yes" : "no"} | ${cell(r.rule)} | ${cell(notes[r.path] ?? "")} |`,
    );
  }
  return lines.join("\n");
}

/** The configuration table: names, defaults and allowed values from ConfigSchema, meanings from CONFIG_NOTES. */
export function configTable(): string {
  const js = z.toJSONSchema(ConfigSchema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const lines = ["| Variable | Default | Allowed | Meaning |", "|---|---|---|---|"];
  for (const [name, prop] of Object.entries(js.properties ?? {})) {
    const def = prop.default === undefined || prop.default === "" ? "empty" : `\`${String(prop.default)}\``;
    const allowed = rule(prop, js) || typeName(prop, js);
    lines.push(
      `| \`${name}\` | ${def} | ${cell(allowed)} | ${cell(CONFIG_NOTES[name as keyof typeof CONFIG_NOTES])} |`,
    );
  }
  return lines.join("\n");
}

/** Paths of every field the notes must describe: a note for a field the schema lacks is as wrong as a missing one. */
export function noteCoverage(): { missing: string[]; unknown: string[] } {
  const check = (schema: z.ZodType, notes: Record<string, string>, label: string) => {
    const paths = fieldRows(schema).map((r) => r.path);
    return {
      missing: paths.filter((p) => !notes[p]).map((p) => `${label} ${p}`),
      unknown: Object.keys(notes)
        .filter((p) => !paths.includes(p))
        .map((p) => `${label} ${p}`),
    };
  };
  const configKeys = Object.keys(ConfigSchema.shape);
  const parts = [
    check(BusinessContent, BUSINESS_NOTES, "business.json"),
    check(ReviewContent, REVIEW_NOTES, "review"),
    {
      missing: configKeys.filter((k) => !CONFIG_NOTES[k as keyof typeof CONFIG_NOTES]).map((k) => `config ${k}`),
      unknown: Object.keys(CONFIG_NOTES)
        .filter((k) => !configKeys.includes(k))
        .map((k) => `config ${k}`),
    },
  ];
  return { missing: parts.flatMap((p) => p.missing), unknown: parts.flatMap((p) => p.unknown) };
}

/** Each generated block: the file it lives in, its marker name and its rendered text. */
export function generatedBlocks(): { file: string; name: string; text: string }[] {
  return [
    { file: "docs/content.md", name: "business-fields", text: fieldTable(BusinessContent, BUSINESS_NOTES) },
    { file: "docs/content.md", name: "review-fields", text: fieldTable(ReviewContent, REVIEW_NOTES) },
    { file: "docs/configuration.md", name: "config-variables", text: configTable() },
  ];
}

const begin = (name: string) => `<!-- generated:${name} (npm run docs) -->`;
const end = (name: string) => `<!-- /generated:${name} -->`;

/** The text between a block's markers, or undefined when the markers are missing. */
export function readBlock(doc: string, name: string): string | undefined {
  const a = doc.indexOf(begin(name));
  const b = doc.indexOf(end(name));
  if (a < 0 || b < a) return undefined;
  return doc.slice(a + begin(name).length, b).trim();
}

export function writeBlock(doc: string, name: string, text: string): string {
  const a = doc.indexOf(begin(name));
  const b = doc.indexOf(end(name));
  if (a < 0 || b < a) throw new Error(`markers ${begin(name)} … ${end(name)} not found`);
  return `${doc.slice(0, a + begin(name).length)}\n${text}\n${doc.slice(b)}`;
}
