// Validates real responses against the served OpenAPI document: the status is documented for the operation,
// the documented headers are present, and the body validates against the documented schema (ajv, JSON Schema 2020-12).
import assert from "node:assert/strict";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, ResponseSpec> }>>;
  components: { responses?: Record<string, ResponseSpec> };
};
type ResponseSpec = { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: object }> };

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
      // Page paths are documented without their trailing slash and served with and without it.
      const slash = template.startsWith("/api/") ? "" : "/?";
      const re = new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}${slash}$`);
      if (re.test(path) && item[method]) return { template, op: item[method] };
    }
    return undefined;
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
        const value = JSON.parse(body ?? "");
        assert.ok(validate(value), `${found.template} ${res.status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
      }
    }
    this.checked++;
  }
}
