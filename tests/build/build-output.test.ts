// Builds the sample content and reads dist/, as Astro's own tests do.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { parseFeed } from "@rowanmanning/feed-parser";
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import jsonFeedSchema from "jsonfeed-schema/schema-v1.1.json" with { type: "json" };
import { readContent } from "../../src/build/read-content.ts";
import { SERVER_BUNDLE_DIR } from "../../src/build/write-manifest.ts";
import { sha256Hex } from "../../src/domain/hash.ts";
import { newestUpdated } from "../../src/domain/order.ts";
import { BuildManifest, MANIFEST_FILE } from "../../src/domain/schemas/manifest.ts";
import { JsonFeed, ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { buildSample } from "../helpers/build.ts";
import { ROOT } from "../helpers/paths.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

let dist: string;
const read = (p: string) => readFile(join(dist, p), "utf8");

before(async () => {
  dist = await buildSample();
});

describe("reviews.json", () => {
  test("validates against the published schema and holds only verified reviews, newest first", async () => {
    const data = ReviewsDataset.parse(JSON.parse(await read("reviews.json")));
    const raw = await readContent(SAMPLE_CONTENT);
    const verified = raw.reviews.filter((f) => JSON.parse(f.text).verified === true);
    assert.equal(data.reviews.length, verified.length);
    assert.ok(verified.length < raw.reviews.length, "the sample has unverified reviews");
    for (let i = 1; i < data.reviews.length; i++) {
      const [a, b] = [data.reviews[i - 1], data.reviews[i]];
      assert.ok(
        a.date > b.date || (a.date === b.date && (a.updated > b.updated || (a.updated === b.updated && a.id < b.id))),
      );
    }
  });

  test("aggregate rating is the mean of published ratings with the distribution", async () => {
    const data = ReviewsDataset.parse(JSON.parse(await read("reviews.json")));
    const sum = data.reviews.reduce((s, r) => s + r.rating, 0);
    assert.equal(data.aggregate_rating.rating_value, Math.round((sum / data.reviews.length) * 100) / 100);
    assert.equal(data.aggregate_rating.review_count, data.reviews.length);
    for (const star of [1, 2, 3, 4, 5] as const) {
      assert.equal(data.aggregate_rating.distribution[star], data.reviews.filter((r) => r.rating === star).length);
    }
  });

  test("every aspect quote is an exact substring of the title or text", async () => {
    const data = ReviewsDataset.parse(JSON.parse(await read("reviews.json")));
    for (const r of data.reviews) {
      for (const a of r.aspects)
        assert.ok(r.text.includes(a.quote) || (r.title ?? "").includes(a.quote), `${r.id}: ${a.quote}`);
    }
  });
});

test("nothing private and nothing unverified appears in any output file", async () => {
  const raw = await readContent(SAMPLE_CONTENT);
  const secrets: string[] = [];
  const unverifiedIds: string[] = [];
  for (const f of raw.reviews) {
    const r = JSON.parse(f.text);
    if (r.private) secrets.push(...Object.values(r.private as Record<string, string>));
    if (!r.verified) unverifiedIds.push(f.path.replace(/^.*\//, "").replace(/\.json$/, ""));
  }
  assert.ok(secrets.length > 0 && unverifiedIds.length > 0, "the sample has private data and unverified reviews");
  const files = (await readdir(dist, { recursive: true, withFileTypes: true })).filter(
    (e) => e.isFile() && !/\.(br|gz)$/.test(e.name),
  );
  for (const e of files) {
    const text = await readFile(join(e.parentPath, e.name), "utf8");
    for (const s of secrets) assert.ok(!text.includes(s), `${e.name} leaks ${s}`);
    for (const id of unverifiedIds)
      assert.ok(!text.includes(`"${id}"`) && !text.includes(`review-${id}<`), `${e.name} has unverified ${id}`);
    assert.ok(!text.includes('"private"'), `${e.name} has a private field`);
  }
});

describe("JSON Feed", () => {
  test("validates against the JSON Feed 1.1 schema and our stricter schema", async () => {
    const feed = JSON.parse(await read("api/feed.json"));
    const ajv = new Ajv.default({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(jsonFeedSchema);
    assert.ok(validate(feed), JSON.stringify(validate.errors));
    const strict = JsonFeed.parse(feed);
    assert.equal(strict.items.length, 50);
    assert.deepEqual(strict.hubs, [{ type: "WebSub", url: "http://localhost:4321/api/websub/hub" }]);
    const dataset = ReviewsDataset.parse(JSON.parse(await read("reviews.json")));
    assert.deepEqual(
      strict.items.map((i) => i._review.rating),
      dataset.reviews.slice(0, 50).map((r) => r.rating),
    );
  });

  test("content_html is escaped: a <script> in a review never becomes markup", async () => {
    const feed = JsonFeed.parse(JSON.parse(await read("api/feed.json")));
    for (const item of feed.items) assert.ok(!/<script/i.test(item.content_html), item.id);
  });
});

describe("Atom feed", () => {
  test("parses with a real feed parser and carries what RFC 4287 requires", async () => {
    const xml = await read("feed.xml");
    const feed = parseFeed(xml);
    assert.equal(feed.meta.type, "atom");
    assert.ok(feed.title && feed.updated);
    assert.equal(feed.self, "http://localhost:4321/feed.xml");
    assert.match(xml, /^ {2}<id>http:\/\/localhost:4321\/feed.xml<\/id>$/m);
    assert.match(xml, /^ {2}<author><name>[^<]+<\/name>/m);
    assert.equal(feed.items.length, 50);
    for (const item of feed.items) {
      assert.ok(item.id && item.title && item.updated && item.content, "entry has id, title, updated, content");
      assert.ok(item.authors.length > 0, "entry has an author");
    }
    assert.match(xml, /<link rel="self" type="application\/atom\+xml" href="http:\/\/localhost:4321\/feed.xml"\/>/);
    assert.match(xml, /<link rel="hub" href="http:\/\/localhost:4321\/api\/websub\/hub"\/>/);
    const dataset = ReviewsDataset.parse(JSON.parse(await read("reviews.json")));
    const newest = newestUpdated(dataset.reviews.slice(0, 50));
    assert.equal(feed.updated?.toISOString().replace(".000Z", "Z"), newest);
  });
});

describe("OpenAPI", () => {
  test("passes Spectral's spectral:oas ruleset with no error or warning", () => {
    const bin = join(ROOT, "node_modules/.bin/spectral");
    const run = spawnSync(
      process.execPath,
      [bin, "lint", join(dist, ".well-known/openapi.json"), "-r", join(ROOT, ".spectral.yaml"), "-f", "json", "-q"],
      { cwd: ROOT, encoding: "utf8" },
    );
    const problems = JSON.parse(run.stdout || "[]") as { code: string; message: string; path: string[] }[];
    assert.deepEqual(
      problems.map((p) => `${p.code} at ${p.path.join(".")}: ${p.message}`),
      [],
    );
  });

  test("component schemas carry no $id (JSON Schema 2020-12) and every operation has an operationId", async () => {
    const doc = JSON.parse(await read(".well-known/openapi.json"));
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      assert.equal((schema as { $id?: string }).$id, undefined, name);
    }
    assert.deepEqual(doc.security, []);
    const ids: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId?: string }>>)) {
      for (const [method, op] of Object.entries(item)) {
        assert.ok(op.operationId, `${method} ${path} has an operationId`);
        ids.push(op.operationId);
      }
      // HEAD is said on each GET, never an operation of its own (renderers would list every path twice).
      assert.equal(item.head, undefined, path);
      if (item.get) assert.match(String((item.get as { description?: string }).description), /HEAD answers/, path);
    }
    assert.equal(new Set(ids).size, ids.length, "operationIds are unique");
  });

  test("passes redocly's recommended lint", () => {
    const bin = join(ROOT, "node_modules/.bin/redocly");
    const run = spawnSync(bin, ["lint", join(dist, ".well-known/openapi.json"), "--format=summary"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
  });

  test("component schemas are the zod schemas and compile", async () => {
    const doc = JSON.parse(await read(".well-known/openapi.json"));
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(doc.info.version, "1.0.0");
    for (const id of [
      "Review",
      "ReviewsDataset",
      "AggregateRating",
      "Business",
      "JsonFeed",
      "SearchResult",
      "SinceResult",
      "Issues",
    ]) {
      assert.ok(doc.components.schemas[id], id);
    }
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema(doc, "openapi");
    const validate = ajv.getSchema("openapi#/components/schemas/ReviewsDataset");
    assert.ok(validate?.(JSON.parse(await read("reviews.json"))), JSON.stringify(validate?.errors));
  });
});

test("the server bundle that renders pages carries no part of the build's pipeline (analysis, lexicons)", async () => {
  const files = (await readdir(join(dist, SERVER_BUNDLE_DIR), { recursive: true })).filter((f) => f.endsWith(".mjs"));
  assert.ok(files.length > 0);
  for (const file of files) {
    const code = await read(join(SERVER_BUNDLE_DIR, file));
    // The analyser's typo corrector and the incremental build's cache: each only the build itself runs.
    for (const name of ["TypoCorrector", "analyseWithCache"]) assert.ok(!code.includes(name), `${file} has ${name}`);
  }
});

test("the manifest lists every file with its sha256", async () => {
  const manifest = BuildManifest.parse(JSON.parse(await read(MANIFEST_FILE)));
  for (const path of ["/reviews.json", "/api/feed.json", "/feed.xml", "/.well-known/openapi.json", "/"]) {
    const entry = manifest.files[path];
    assert.ok(entry, path);
    assert.equal(sha256Hex(await readFile(join(dist, entry.file))), entry.sha256);
  }
  assert.equal(manifest.files["/feed.xml"].type, "application/atom+xml; charset=utf-8");
  assert.equal(manifest.files["/"].type, "text/html; charset=utf-8");
});

test("two builds of the same content publish byte-identical files", async () => {
  const second = await buildSample(undefined, { fresh: true });
  // The on-demand pages' server bundle is code, never served, and names the folder it was built in.
  const list = async (d: string) =>
    (await readdir(d, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(d.length))
      .filter((f) => !f.startsWith(`/${SERVER_BUNDLE_DIR}/`))
      .sort();
  const files = await list(dist);
  assert.deepEqual(await list(second), files);
  for (const f of files) assert.ok((await readFile(join(dist, f))).equals(await readFile(join(second, f))), f);
});
