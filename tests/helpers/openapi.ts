// Validates real responses against the served OpenAPI document: the status is documented for the operation,
// the documented headers are present, and the body validates against the documented schema (ajv, JSON Schema 2020-12).
import assert from "node:assert/strict";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Parameter = { name: string; in: string; required?: boolean; schema: { type?: string } };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, ResponseSpec>;
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { responses?: Record<string, ResponseSpec> };
};
type ResponseSpec = { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: object }> };

/** Whether a URL path is an instance of a path template; page paths are documented with their trailing slash and served with and without it. */
export function pathMatches(template: string, path: string): boolean {
  const page = !template.startsWith("/api/") && template.endsWith("/") && template !== "/";
  const body = page ? template.slice(0, -1) : template;
  return new RegExp(`^${body.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}${page ? "/?" : ""}$`).test(path);
}

export class OpenApiValidator {
  readonly #doc: Doc;
  readonly #ajv: InstanceType<typeof Ajv2020.default>;
  readonly #compiled = new Map<string, ReturnType<InstanceType<typeof Ajv2020.default>["compile"]>>();
  checked = 0;

  constructor(doc: object) {
    this.#doc = doc as Doc;
    this.#ajv = new Ajv2020.default({ strict: false, allErrors: true });
    addFormats.default(this.#ajv);
    this.#ajv.addSchema(doc, "openapi");
  }

  #operation(path: string, method: string) {
    for (const [template, item] of Object.entries(this.#doc.paths)) {
      if (pathMatches(template, path) && item[method]) return { template, op: item[method] };
    }
    return undefined;
  }

  #validator(schema: object) {
    const key = JSON.stringify(schema);
    let validate = this.#compiled.get(key);
    if (!validate) {
      validate = this.#ajv.compile(JSON.parse(key.replaceAll('"#/components/', '"openapi#/components/')));
      this.#compiled.set(key, validate);
    }
    return validate;
  }

  /**
   * Whether the document accepts a request: a documented operation, every query parameter declared and given once,
   * every required one present, every value (numbers read from their text) valid against its schema; a form body of
   * a documented media type, valid against its schema.
   */
  accepts(
    method: string,
    url: string,
    body?: { type: string; text: string },
  ): { ok: true } | { ok: false; why: string } {
    const { pathname, searchParams } = new URL(url);
    const found = this.#operation(pathname, method === "head" ? "get" : method);
    if (!found) return { ok: false, why: `${method.toUpperCase()} ${pathname} is not documented` };
    const params = found.op.parameters ?? [];
    const names = found.template.match(/\{[^}]+\}/g)?.map((n) => n.slice(1, -1)) ?? [];
    const re = new RegExp(`^${found.template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "([^/]+)")}$`);
    const values = (re.exec(pathname) ?? []).slice(1);
    const given: [Parameter | undefined, string, string][] = names.map((n, i) => [
      params.find((p) => p.in === "path" && p.name === n),
      n,
      decodeURIComponent(values[i]),
    ]);
    for (const key of new Set(searchParams.keys())) {
      if (searchParams.getAll(key).length > 1) return { ok: false, why: `${key} is repeated` };
      given.push([params.find((p) => p.in === "query" && p.name === key), key, searchParams.get(key) as string]);
    }
    for (const p of params) {
      if (p.in === "query" && p.required && !searchParams.has(p.name)) return { ok: false, why: `${p.name} missing` };
    }
    for (const [param, name, text] of given) {
      if (!param) return { ok: false, why: `${name} is not a parameter of ${found.template}` };
      const numeric = param.schema.type === "integer" || param.schema.type === "number";
      const value = numeric && text.trim() !== "" && !Number.isNaN(Number(text)) ? Number(text) : text;
      if (!this.#validator(param.schema)(value)) return { ok: false, why: `${name}=${text} does not fit its schema` };
    }
    const requestBody = found.op.requestBody;
    if (requestBody && body?.type === "application/x-www-form-urlencoded") {
      const media = requestBody.content[body.type];
      if (!media) return { ok: false, why: `${body.type} is not a documented request body` };
      const form = Object.fromEntries(new URLSearchParams(body.text));
      const validate = this.#validator(media.schema);
      if (!validate(form))
        return { ok: false, why: `the form does not fit its schema: ${validate.errors?.[0]?.message}` };
    } else if (requestBody && body && !requestBody.content[body.type]) {
      return { ok: false, why: `${body.type} is not a documented request body` };
    }
    return { ok: true };
  }

  /** Asserts that a response is described by the document. */
  async check(method: string, url: string, res: Response, body?: string): Promise<void> {
    const path = new URL(url).pathname;
    const found = this.#operation(path, method === "head" ? "get" : method);
    assert.ok(found, `${method.toUpperCase()} ${path} is not in the OpenAPI document`);
    let spec = found.op.responses[String(res.status)];
    assert.ok(spec, `${method.toUpperCase()} ${found.template} does not document status ${res.status}`);
    if (spec.$ref) spec = this.#doc.components.responses?.[spec.$ref.split("/").pop() as string] as ResponseSpec;
    for (const h of Object.keys(spec.headers ?? {})) {
      if (h === "Vary" || h === "Last-Modified") continue;
      assert.ok(res.headers.has(h), `${found.template} ${res.status} lacks documented header ${h}`);
    }
    const type = res.headers.get("content-type")?.split(";")[0];
    if (!spec.content) {
      assert.equal(body ?? "", "", `${found.template} ${res.status} documents no body`);
    } else if (method !== "head") {
      assert.ok(type && spec.content[type], `${found.template} ${res.status} does not document ${type}`);
      if (type.endsWith("json")) {
        const key = `${found.template} ${method} ${res.status} ${type}`;
        let validate = this.#compiled.get(key);
        if (!validate) {
          const schema = JSON.parse(
            JSON.stringify(spec.content[type].schema).replaceAll('"#/components/', '"openapi#/components/'),
          );
          validate = this.#ajv.compile(schema);
          this.#compiled.set(key, validate);
        }
        // A schema of type string (a 206's byte range of a JSON file) describes the body's text, not a JSON value.
        const text = (spec.content[type].schema as { type?: string }).type === "string";
        const value = text ? (body ?? "") : JSON.parse(body ?? "");
        assert.ok(validate(value), `${found.template} ${res.status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
      }
    }
    this.checked++;
  }
}
