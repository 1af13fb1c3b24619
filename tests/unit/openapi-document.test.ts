// The OpenAPI document as a reader and a generated client meet it: page paths as the site links them, HEAD said on
// each GET instead of doubling the operations, an example for every parameter and error answer that its own schema
// accepts, and no bound a reader cannot use.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { renderOpenApi } from "../../src/domain/openapi.ts";
import {
  ENTITY_KINDS,
  entityPath,
  PAGE_PATHS,
  reviewPath,
  reviewsPagePath,
} from "../../src/domain/pages/site-paths.ts";
import { Business } from "../../src/domain/schemas/published.ts";

type Media = { schema: object; example?: unknown };
type Operation = {
  description?: string;
  parameters?: { name: string; in: string; schema: object; example?: unknown }[];
  responses: Record<string, { content?: Record<string, Media> }>;
};
const business = Business.parse(
  JSON.parse(readFileSync(new URL("../../content/business.json", import.meta.url), "utf8")),
);
const doc = renderOpenApi(business, "http://localhost:4321", {}, "2025-10-12-jose-p") as unknown as {
  paths: Record<string, Record<string, Operation>>;
};
const matches = (url: string) =>
  Object.keys(doc.paths).some((t) =>
    new RegExp(`^${t.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`).test(url),
  );

test("page paths are the URLs the site links to, trailing slash included", () => {
  const linked = [
    PAGE_PATHS.home,
    PAGE_PATHS.reviews,
    PAGE_PATHS.widget,
    PAGE_PATHS.apiReference,
    reviewPath("2025-10-12-jose-p"),
    reviewsPagePath(2),
    ...Object.keys(ENTITY_KINDS).flatMap((k) => [
      ENTITY_KINDS[k as keyof typeof ENTITY_KINDS].path,
      entityPath(k as keyof typeof ENTITY_KINDS, "someone"),
    ]),
  ];
  for (const url of linked) assert.ok(matches(url), `${url} is not in the document`);
  for (const url of ["/reviews", "/technicians/someone", "/reviews/page/2"]) assert.ok(!matches(url), url);
});

test("HEAD is said on every GET and is never an operation of its own", () => {
  for (const [path, item] of Object.entries(doc.paths)) {
    assert.equal(item.head, undefined, path);
    if (item.get) assert.match(item.get.description ?? "", /HEAD answers with the same status and headers/, path);
  }
});

test("every parameter and every error answer has an example its schema accepts", () => {
  const ajv = new Ajv2020.default({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema(doc, "openapi");
  const compile = (schema: object) =>
    ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')));
  let checked = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const p of op.parameters ?? []) {
        const example = p.example ?? (p.schema as { examples?: unknown[] }).examples?.[0];
        assert.notEqual(example, undefined, `${method} ${path} ${p.in} ${p.name} has no example`);
        const validate = compile(p.schema);
        assert.ok(validate(example), `${method} ${path} ${p.name}: ${JSON.stringify(validate.errors)}`);
        checked++;
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (type === "text/html") continue;
          assert.notEqual(media.example, undefined, `${method} ${path} ${status} ${type} has no example`);
          const validate = compile(media.schema);
          assert.ok(validate(media.example), `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 100, `${checked} examples`);
});

test("no placeholder bounds and no $schema inside the document", () => {
  const text = JSON.stringify(doc);
  assert.ok(!text.includes(String(Number.MAX_SAFE_INTEGER)));
  assert.ok(!text.includes('"$schema"'));
});

test("the search documents match: its two values, the default and how words differ from a substring", () => {
  const parameters = doc.paths["/api/reviews/search"].get.parameters ?? [];
  const match = parameters.find((p) => p.name === "match") as { schema: { enum?: string[] }; description?: string };
  assert.deepEqual(match.schema.enum, ["substring", "words"]);
  assert.match(match.description ?? "", /substring \(default\)/);
  assert.match(match.description ?? "", /words: all its words, any order/);
  assert.match(match.description ?? "", /BM25/);
});
