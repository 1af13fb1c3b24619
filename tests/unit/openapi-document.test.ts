// The OpenAPI document as a reader and a generated client meet it: page paths as the site links them, HEAD said on
// each GET instead of doubling the operations, an example for every parameter, request body and answer with a body
// that its own schema accepts, and no bound a reader cannot use. The document is the one a build of the sample
// content serves.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { computeSite } from "../../src/build/site-data.ts";
import { renderOpenApi } from "../../src/domain/openapi.ts";
import { type OpenApiDocument, referenceSections } from "../../src/domain/pages/api-reference.ts";
import {
  ENTITY_KINDS,
  entityPath,
  PAGE_PATHS,
  reviewPath,
  reviewsPagePath,
} from "../../src/domain/pages/site-paths.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

type Media = { schema: object; example?: unknown; examples?: Record<string, { value?: unknown }> };
type Response = { $ref?: string; content?: Record<string, Media> };
type Operation = {
  description?: string;
  parameters?: { name: string; in: string; schema: object; example?: unknown }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, Response>;
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, Response> };
};
const BASE = "http://localhost:4321";
let doc: Doc;
let site: Awaited<ReturnType<typeof computeSite>>;
before(async () => {
  site = await computeSite({ CONTENT_DIR: SAMPLE_CONTENT, BASE_URL: BASE });
  doc = site.openapi as Doc;
});

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

/** Compiles schemas of the document, their `#/components/…` references resolved in it. */
function validator(document: object) {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document, "openapi");
  return (schema: object) =>
    ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')));
}

/** The examples of a media type: `example` and every named one of `examples`. */
const examplesOf = (media: Media) => [
  ...(media.example === undefined ? [] : [media.example]),
  ...Object.values(media.examples ?? {}).map((e) => e.value),
];

test("every example (parameters, request bodies, answers, every media type) is valid against its schema", () => {
  const compile = validator(doc);
  const resolve = (r: Response) => (r.$ref ? doc.components.responses[r.$ref.split("/").pop() as string] : r);
  const bodiless: string[] = [];
  let checked = 0;
  const check = (where: string, schema: object, examples: unknown[]) => {
    assert.ok(examples.length > 0, `${where} has no example`);
    const validate = compile(schema);
    for (const example of examples) {
      assert.ok(validate(example), `${where}: ${JSON.stringify(validate.errors)}`);
      checked++;
    }
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) {
        const example = p.example ?? (p.schema as { examples?: unknown[] }).examples?.[0];
        check(`${at} ${p.in} ${p.name}`, p.schema, example === undefined ? [] : [example]);
      }
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        check(`${at} request ${type}`, media.schema, examplesOf(media));
      }
      for (const [status, response] of Object.entries(op.responses)) {
        const { content } = resolve(response);
        if (!content) bodiless.push(`${at} ${status}`);
        for (const [type, media] of Object.entries(content ?? {})) {
          check(`${at} ${status} ${type}`, media.schema, examplesOf(media));
        }
      }
    }
  }
  assert.ok(checked > 200, `${checked} examples`);
  // The answers without a body: a 304, the 202 of an accepted notification or subscription, the end of a session.
  const unexpected = bodiless.filter(
    (s) => !s.endsWith(" 304") && !["POST /mcp 202", "POST /api/websub/hub 202", "DELETE /mcp 200"].includes(s),
  );
  assert.deepEqual(unexpected, []);
});

test("answer examples are the build's own: its reviews, its insights, the service's answers to them", () => {
  const answer = (path: string, type = "application/json", method = "get") =>
    (doc.paths[path][method].responses["200"].content as Record<string, Media>)[type].example as Record<
      string,
      unknown
    >;
  const published = new Map(site.dataset.reviews.map((r) => [r.id, r]));
  const dataset = answer("/reviews.json") as { reviews: { id: string }[]; business: unknown };
  assert.equal(dataset.reviews.length, 2, "two reviews keep the examples short");
  for (const r of dataset.reviews) assert.deepEqual(r, published.get(r.id), "a published review, as published");
  assert.deepEqual(dataset.business, site.dataset.business);
  const search = answer("/api/reviews/search") as { total: number; count: number; next_cursor: string | null };
  assert.deepEqual([search.total, search.count, typeof search.next_cursor], [2, 1, "string"], "a page with a next one");
  const feed = answer("/api/feed.json") as { items: { id: string }[] };
  assert.equal(feed.items.length, 2);
  const insights = answer("/insights.json") as { generated_from: unknown; aspects: unknown[] };
  assert.deepEqual(insights.generated_from, site.insights.generated_from);
  assert.equal(insights.aspects.length, 1, "one entry of each list");
  const reviewId = doc.paths["/reviews/{id}/"].get.parameters?.find((p) => p.name === "id")?.example;
  assert.ok(
    dataset.reviews.some((r) => r.id === reviewId),
    "the review page's id is a review of the examples",
  );
  const size = JSON.stringify(doc).length;
  assert.ok(size < 200_000, `the document is ${size} bytes`);
});

test("without the build's reviews and insights, parameters and errors still have examples and answers have none", () => {
  const bare = renderOpenApi(site.dataset.business, BASE) as unknown as Doc;
  const search = bare.paths["/api/reviews/search"].get;
  assert.ok(search.parameters?.every((p) => p.example !== undefined || "examples" in p.schema));
  assert.notEqual(search.responses["400"].content?.["application/json"].example, undefined);
  assert.equal(search.responses["200"].content?.["application/json"].example, undefined);
});

test("the reference page shows each answer's example, an answer shared by many operations once, no page HTML", () => {
  const operations = referenceSections(doc as unknown as OpenApiDocument).flatMap((s) => s.operations);
  const answers = operations.flatMap((op) => op.responses.map((r) => ({ op: op.id, ...r })));
  const search = answers.find((r) => r.op === "searchReviews" && r.status === "200");
  assert.equal(search?.example?.type, "application/json");
  assert.match(search?.example?.text ?? "", /"next_cursor": "/, "JSON indented for reading");
  assert.match(answers.find((r) => r.op === "getAtomFeed" && r.status === "200")?.example?.text ?? "", /^<\?xml/);
  const tooLong = answers.filter((r) => r.status === "414");
  assert.ok(tooLong.length > 10);
  assert.equal(tooLong.filter((r) => r.example).length, 1, "the shared 414 shows its example once");
  assert.ok(answers.every((r) => r.example?.type !== "text/html"));
});

test("no placeholder bounds and no $schema inside the document", () => {
  // Examples are answers, not schemas: the MCP Server Card's own `$schema` belongs in its example.
  const text = JSON.stringify(doc, (key, value) => (key === "example" ? undefined : value));
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

test("every static file declares byte ranges (Range, If-Range, 206, 416, Accept-Ranges); nothing else does", () => {
  type Declared = { headers?: Record<string, unknown>; content?: Record<string, Media> };
  let files = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      const headers = (op.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
      const ranged = (op as { tags?: string[] }).tags?.includes("datasets") === true;
      assert.equal(headers.includes("Range") && headers.includes("If-Range"), ranged, `${at}: Range and If-Range`);
      assert.equal("206" in op.responses, ranged, `${at}: 206`);
      assert.equal("416" in op.responses, ranged, `${at}: 416`);
      if (!ranged) continue;
      files++;
      const whole = op.responses["200"] as Declared;
      const part = op.responses["206"] as Declared;
      assert.ok(whole.headers?.["Accept-Ranges"], `${at}: Accept-Ranges on the 200`);
      assert.ok(part.headers?.["Content-Range"], `${at}: Content-Range on the 206`);
      // The 206 is a slice of the file in the file's own media type, never the whole file's schema.
      assert.deepEqual(Object.keys(part.content ?? {}), Object.keys(whole.content ?? {}), at);
      for (const media of Object.values(part.content ?? {})) {
        assert.equal((media.schema as { type?: string }).type, "string", at);
        assert.ok(typeof media.example === "string" && Buffer.byteLength(media.example) <= 10, at);
      }
      assert.equal(op.responses["416"].$ref, "#/components/responses/RangeNotSatisfiable", at);
    }
  }
  assert.ok(files >= 13, `${files} static files`);
  const unsatisfiable = doc.components.responses.RangeNotSatisfiable as Declared;
  assert.ok(unsatisfiable.headers?.["Content-Range"]);
  assert.ok(unsatisfiable.content?.["application/json"], "the service's JSON error");
});
