// Customers' contact details never leave the build: every file in dist/ (compressed variants decoded), the
// search and since answers and every MCP tool and resource. Pages added later are covered by the walk.
import assert from "node:assert/strict";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { contentFixture, runBuild } from "../helpers/build.ts";
import { tempDir } from "../helpers/paths.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

const today = new Date().toISOString().slice(0, 10);
const BUSINESS_PHONE = "+1-208-555-0147"; // content/business.json's own telephone
const LEAKS = [
  "jane.doe+hvac@mail.example",
  "208-555-0199",
  "+44 20 7946 0958",
  "(208) 555-0123",
  "bob.k@example.org",
  "208 555 0188",
];
const review = (fields: Record<string, unknown>) => ({
  rating: 5,
  date: today,
  author: "Jane D.",
  verified: true,
  ...fields,
});
const FILES = {
  "reviews/pii/pii-text.json": review({
    title: "Call (208) 555-0123 for great service",
    text: "Great service, very professional. Email me at jane.doe+hvac@mail.example or call 208-555-0199, or +44 20 7946 0958 when abroad.",
  }),
  "reviews/pii/pii-author.json": review({
    author: "bob.k@example.org",
    text: "The technician was on time and friendly.",
    response: {
      text: `Thanks! We called you back at 208 555 0188; reach us any time at ${BUSINESS_PHONE} or hello@summitcomfort.example.`,
      date: today,
    },
  }),
  "reviews/pii/pii-unpublished.json": review({ verified: false, text: "Call me on 208-555-0199." }),
};

let content: string;
let dist: string;
let stderr: string;
let sidecar: RunningSidecar;
let client: Client;

async function distTexts(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    const bytes = await readFile(path);
    const plain = path.endsWith(".br") ? brotliDecompressSync(bytes) : path.endsWith(".gz") ? gunzipSync(bytes) : bytes;
    out.set(path, plain.toString("utf8"));
  }
  return out;
}

/** Undoes the escapes an output may apply (HTML and XML entities, JSON \\u escapes) so none hides a leak. */
function unescapeAll(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, h) => String.fromCharCode(Number.parseInt(h, 16)))
    .replace(/&#x([0-9a-fA-F]+);/g, (_, h) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&(lt|gt|quot|apos|amp);/g, (_, n) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[n as "lt"]);
}

function assertNoLeak(where: string, text: string): void {
  const plain = unescapeAll(text);
  for (const leak of LEAKS) assert.ok(!plain.includes(leak), `${where} contains ${leak}`);
}

before(async () => {
  content = await contentFixture(FILES);
  dist = join(await tempDir("dist"), "dist");
  const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist });
  assert.equal(run.code, 0, run.stderr);
  stderr = run.stderr;
  sidecar = await startTestSidecar(dist);
  client = new Client({ name: "pii-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sidecar.url}/mcp`)));
});
after(async () => {
  await client?.close();
  await sidecar?.close();
  await rm(content, { recursive: true, force: true });
});

test("the build names each published review file that had contact details, and only those", () => {
  assert.match(stderr, /contact details redacted in 2 review files/);
  assert.match(stderr, /reviews\/pii\/pii-text\.json: title \(phone\), text \(email, phone\)/);
  assert.match(stderr, /reviews\/pii\/pii-author\.json: author \(email\), response\.text \(phone\)/);
  assert.doesNotMatch(stderr, /pii-unpublished/);
});

test("no file in dist/, compressed variants included, holds a customer's email or phone number", async () => {
  const files = await distTexts(dist);
  assert.ok(files.size > 5);
  for (const [path, text] of files) assertNoLeak(path, text);
});

test("redacted text is published with placeholders, the business's own contacts kept, quotes still exact", async () => {
  const dataset = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8"));
  const byId = new Map(dataset.reviews.map((r: { id: string }) => [r.id, r]));
  const text = byId.get("pii-text") as { title: string; text: string; aspects: { quote: string }[] };
  assert.equal(text.title, "Call [phone removed] for great service");
  assert.equal(
    text.text,
    "Great service, very professional. Email me at [email removed] or call [phone removed], or [phone removed] when abroad.",
  );
  const author = byId.get("pii-author") as { author: string; response: { text: string } };
  assert.equal(author.author, "[email removed]");
  assert.ok(author.response.text.includes(BUSINESS_PHONE));
  assert.ok(author.response.text.includes("hello@summitcomfort.example"));
  assert.ok(author.response.text.includes("[phone removed]"));
  for (const r of dataset.reviews as { title?: string; text: string; aspects: { quote: string }[] }[]) {
    for (const a of r.aspects) assert.ok(`${r.title ?? ""}\n${r.text}`.includes(a.quote), a.quote);
  }
  assert.ok(text.aspects.length > 0);
});

test("search and since answers hold no contact details", async () => {
  for (const path of [
    "/api/reviews/search?query=removed",
    "/api/reviews/search?query=mail.example",
    "/api/reviews/search?query=555",
    `/api/reviews/since/${today}`,
  ]) {
    const res = await fetch(`${sidecar.url}${path}`);
    assert.equal(res.status, 200, path);
    assertNoLeak(path, await res.text());
  }
  const found = await (await fetch(`${sidecar.url}/api/reviews/search?query=email%20removed`)).json();
  assert.deepEqual(
    found.reviews.map((r: { id: string }) => r.id),
    ["pii-text"],
  );
});

test("MCP tools and resources hold no contact details", async () => {
  const calls: [string, Record<string, unknown>][] = [
    ["get_business", {}],
    ["search_reviews", { query: "removed" }],
    ["search_reviews", { since: today, limit: 100 }],
    ["get_review", { id: "pii-text" }],
    ["get_review", { id: "pii-author" }],
    ["get_reviews_since", { date: today }],
    ["get_insights", {}],
  ];
  for (const [name, args] of calls) {
    const result = await client.callTool({ name, arguments: args });
    assert.notEqual(result.isError, true, name);
    assertNoLeak(`tool ${name}`, JSON.stringify(result));
  }
  const { resources } = await client.listResources();
  assert.ok(resources.length > 0);
  for (const r of [...resources, { uri: "reviews://review/pii-text" }]) {
    assertNoLeak(`resource ${r.uri}`, JSON.stringify(await client.readResource({ uri: r.uri })));
  }
});

test("PII_POLICY=off publishes the text as written (so the checks above can fail)", async () => {
  const offDist = join(await tempDir("dist"), "dist");
  const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: offDist, PII_POLICY: "off" });
  assert.equal(run.code, 0, run.stderr);
  const dataset = await readFile(join(offDist, "reviews.json"), "utf8");
  for (const leak of LEAKS) assert.ok(dataset.includes(leak), leak);
  await rm(offDist, { recursive: true, force: true });
});

test("PII_POLICY=fail refuses the build, naming each file and field", async () => {
  const failDist = join(await tempDir("dist"), "dist");
  const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: failDist, PII_POLICY: "fail" });
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /reviews\/pii\/pii-text\.json: text: contains a customer's email and phone \(PII_POLICY=fail/,
  );
  assert.match(run.stderr, /reviews\/pii\/pii-author\.json: author: contains a customer's email/);
  assert.doesNotMatch(run.stderr, /pii-unpublished/);
  await assert.rejects(readFile(join(failDist, "reviews.json")));
});

test("the incremental build cache never hands text analysed under PII_POLICY=off to a redacting build", async () => {
  const cache = join(await tempDir("cache"), "cache");
  const root = await tempDir("dist");
  const off = await runBuild({
    CONTENT_DIR: content,
    DIST_DIR: join(root, "off"),
    PII_POLICY: "off",
    BUILD_CACHE_DIR: cache,
  });
  assert.equal(off.code, 0, off.stderr);
  const redacted = await runBuild({ CONTENT_DIR: content, DIST_DIR: join(root, "on"), BUILD_CACHE_DIR: cache });
  assert.equal(redacted.code, 0, redacted.stderr);
  const dataset = await readFile(join(root, "on", "reviews.json"), "utf8");
  for (const leak of LEAKS) assert.ok(!dataset.includes(leak), `${leak} came back from the cache`);
  await rm(root, { recursive: true, force: true });
});

test("a review with contact details is never recorded as clean: cached builds redact and refuse it as a clean build does", async () => {
  const cache = join(await tempDir("cache"), "cache");
  const root = await tempDir("dist");
  for (const name of ["first", "second"]) {
    const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: join(root, name), BUILD_CACHE_DIR: cache });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /reviews\/pii\/pii-text\.json: title \(phone\), text \(email, phone\)/, name);
    const dataset = await readFile(join(root, name, "reviews.json"), "utf8");
    for (const leak of LEAKS) assert.ok(!dataset.includes(leak), `${name}: ${leak}`);
  }
  const snapshot = await readFile(join(cache, "content-snapshot.ndjson"), "utf8");
  const lines = snapshot
    .trim()
    .split("\n")
    .slice(1)
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const recorded = (path: string) => lines.findLast((l) => l[0] === path);
  assert.equal(recorded("reviews/pii/pii-text.json").length, 8, "no guard fingerprint for a review with contacts");
  assert.ok(
    lines.some((l) => l.length === 9),
    "clean reviews are recorded as clean",
  );
  const fail = await runBuild({
    CONTENT_DIR: content,
    DIST_DIR: join(root, "fail"),
    BUILD_CACHE_DIR: cache,
    PII_POLICY: "fail",
  });
  assert.equal(fail.code, 1);
  assert.match(fail.stderr, /reviews\/pii\/pii-author\.json: author: contains a customer's email/);
  await rm(root, { recursive: true, force: true });
});
