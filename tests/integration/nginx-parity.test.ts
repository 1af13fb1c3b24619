// nginx configured by `npm run nginx-config`, serving a real build and proxying to a real sidecar process, answers
// every static file as the sidecar does; the build's `_headers` file says the same; a rebuild of the same bytes
// keeps every validator.
import assert from "node:assert/strict";
import { readFile, stat } from "node:fs/promises";
import { get as httpGet } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type BuildManifest, MANIFEST_FILE } from "../../src/domain/schemas/manifest.ts";
import { HEADERS_FILE, IMMUTABLE_PREFIX } from "../../src/domain/static-headers.ts";
import { buildSample, runBuild } from "../helpers/build.ts";
import { headersFor, parseHeadersFile } from "../helpers/headers-file.ts";
import { type RunningNginx, startNginx } from "../helpers/nginx.ts";
import { tempDir } from "../helpers/paths.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";
import { type SidecarProcess, startSidecarProcess } from "../helpers/sidecar-process.ts";

const BASE_URL = "http://localhost:4321";
/** What a static host must reproduce; validators differ by design (nginx: mtime-size) and are checked by behaviour. */
const COMPARED = [
  "content-type",
  "content-encoding",
  "cache-control",
  "vary",
  "access-control-allow-origin",
  "access-control-expose-headers",
  "link",
  "x-content-type-options",
];
const ENCODINGS = ["br, gzip", "gzip", "identity"];

let dist: string;
let manifest: BuildManifest;
let sidecar: SidecarProcess;
let nginx: RunningNginx;

before(async () => {
  dist = await buildSample(BASE_URL);
  manifest = JSON.parse(await readFile(join(dist, MANIFEST_FILE), "utf8"));
  sidecar = await startSidecarProcess({
    DIST_DIR: dist,
    BASE_URL,
    DATA_DIR: join(await tempDir("data"), "data"),
  });
  nginx = await startNginx({ root: dist, upstream: new URL(sidecar.url).host, baseUrl: BASE_URL });
});
after(async () => {
  await nginx?.stop();
  await sidecar?.stop();
});

const paths = () => Object.keys(manifest.files);

/** A GET as sent, its body as received (not decoded: a range of a compressed file is not a whole stream). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; range?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, range: res.headers["content-range"], body: Buffer.concat(parts) }),
      );
    }).on("error", reject);
  });
}

async function get(url: string, headers: Record<string, string>, method = "GET") {
  const res = await fetch(url, { method, headers });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

test("every static file: nginx answers with the sidecar's status, headers, encodings and bytes", async () => {
  assert.ok(paths().length >= 6, "the sample build publishes the datasets, feeds, OpenAPI and the page");
  for (const path of paths()) {
    for (const encoding of ENCODINGS) {
      for (const method of ["GET", "HEAD"]) {
        const what = `${method} ${path} (Accept-Encoding: ${encoding})`;
        const a = await get(`${sidecar.url}${path}`, { "Accept-Encoding": encoding }, method);
        const b = await get(`${nginx.url}${path}`, { "Accept-Encoding": encoding }, method);
        assert.equal(b.res.status, 200, what);
        assert.equal(b.res.status, a.res.status, what);
        // Accept-Ranges too: a static host adds it itself, so it is not in _headers.
        for (const name of [...COMPARED, "accept-ranges"])
          assert.equal(b.res.headers.get(name), a.res.headers.get(name), `${what}: ${name}`);
        assert.deepEqual(b.body, a.body, `${what}: body`);
        for (const r of [a.res, b.res]) {
          assert.match(r.headers.get("etag") ?? "", /^"[^"]+"$/, `${what}: a strong ETag`);
          if (!path.startsWith(IMMUTABLE_PREFIX)) assert.ok(r.headers.get("last-modified"), `${what}: Last-Modified`);
        }
      }
    }
  }
});

test("every static file: each server's own ETag and Last-Modified give 304 with no body and no Content-Type", async () => {
  for (const path of paths()) {
    for (const encoding of ENCODINGS) {
      for (const server of [sidecar.url, nginx.url]) {
        const what = `${server}${path} (${encoding})`;
        const first = await get(`${server}${path}`, { "Accept-Encoding": encoding });
        const etag = first.res.headers.get("etag") as string;
        const byTag = await get(`${server}${path}`, { "Accept-Encoding": encoding, "If-None-Match": etag });
        assert.equal(byTag.res.status, 304, `${what}: If-None-Match`);
        assert.equal(byTag.body.length, 0);
        assert.equal(byTag.res.headers.get("content-type"), null, `${what}: no Content-Type on 304`);
        assert.equal(byTag.res.headers.get("etag"), etag);
        const stale = await get(`${server}${path}`, { "Accept-Encoding": encoding, "If-None-Match": '"other"' });
        assert.equal(stale.res.status, 200, `${what}: another ETag gets the file`);
        const lastModified = first.res.headers.get("last-modified");
        if (!lastModified) continue;
        const byDate = await get(`${server}${path}`, {
          "Accept-Encoding": encoding,
          "If-Modified-Since": lastModified,
        });
        assert.equal(byDate.res.status, 304, `${what}: If-Modified-Since`);
      }
    }
  }
});

test("byte ranges: nginx and the sidecar give the same 206, Content-Range and bytes; If-Range of another version and 416 alike", async () => {
  const small = paths().find((p) => p.endsWith(".json") && !p.startsWith(IMMUTABLE_PREFIX)) as string;
  for (const path of ["/reviews.json", small]) {
    for (const encoding of ENCODINGS) {
      const plain = await rawGet(`${sidecar.url}${path}`, { "Accept-Encoding": encoding });
      const size = plain.body.length;
      for (const [range, ifRange] of [
        ["bytes=0-9", undefined],
        [`bytes=${Math.floor(size / 2)}-`, undefined],
        ["bytes=-7", undefined],
        ["bytes=0-9", '"another-version"'],
        [`bytes=${size + 5}-`, undefined],
      ] as [string, string | undefined][]) {
        const what = `${path} (${encoding}) Range: ${range}${ifRange ? ` If-Range: ${ifRange}` : ""}`;
        const headers: Record<string, string> = { "Accept-Encoding": encoding, Range: range };
        if (ifRange) headers["If-Range"] = ifRange;
        const a = await rawGet(`${sidecar.url}${path}`, headers);
        const b = await rawGet(`${nginx.url}${path}`, headers);
        assert.equal(b.status, a.status, what);
        assert.equal(b.range, a.range, what);
        if (a.status !== 416) assert.deepEqual(b.body, a.body, `${what}: body`);
      }
    }
  }
});

test("CORS preflight gets 204 with the sidecar's headers, for static files and proxied paths alike", async () => {
  const preflight = { Origin: "https://app.example", "Access-Control-Request-Method": "GET" };
  for (const path of ["/reviews.json", "/feed.xml", "/api/reviews/search", "/mcp"]) {
    const a = await fetch(`${sidecar.url}${path}`, { method: "OPTIONS", headers: preflight });
    const b = await fetch(`${nginx.url}${path}`, { method: "OPTIONS", headers: preflight });
    assert.equal(b.status, 204, path);
    assert.equal(a.status, 204, path);
    for (const name of [
      "access-control-allow-origin",
      "access-control-allow-methods",
      "access-control-allow-headers",
      "access-control-max-age",
      "access-control-expose-headers",
    ]) {
      assert.ok(a.headers.get(name), `${path}: the sidecar sends ${name}`);
      assert.equal(b.headers.get(name), a.headers.get(name), `${path}: ${name}`);
    }
  }
});

test("the manifest, _headers and the .br/.gz siblings are not served; other methods get the sidecar's 405", async () => {
  for (const path of [
    `/${MANIFEST_FILE}`,
    `/${HEADERS_FILE}`,
    "/reviews.json.gz",
    "/api/feed.json.br",
    "/.well-known/",
    "/_server/entry.mjs",
  ]) {
    const a = await get(`${sidecar.url}${path}`, {});
    const b = await get(`${nginx.url}${path}`, {});
    assert.equal(b.res.status, 404, path);
    assert.equal(a.res.status, 404, path);
    assert.deepEqual(b.body, a.body, `${path}: the sidecar's 404`);
  }
  assert.equal((await fetch(`${sidecar.url}/metrics`)).status, 200, "the sidecar serves its metrics to operators");
  assert.equal((await fetch(`${nginx.url}/metrics`)).status, 404, "but never through the public site");
  const post = await fetch(`${nginx.url}/reviews.json`, { method: "POST", body: "x" });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET, HEAD");
  assert.equal((await post.json()).error, "method_not_allowed");
});

test("paths that are not static files reach the sidecar through nginx unchanged", async () => {
  for (const path of ["/api/reviews/search?limit=2&min_rating=4", "/api/reviews/since/2025-01-01", "/readyz"]) {
    const a = await get(`${sidecar.url}${path}`, { "Accept-Encoding": "identity" });
    const b = await get(`${nginx.url}${path}`, { "Accept-Encoding": "identity" });
    assert.equal(b.res.status, 200, path);
    assert.deepEqual(b.body, a.body, path);
    assert.equal(b.res.headers.get("content-type"), a.res.headers.get("content-type"), path);
  }
  const bad = await fetch(`${nginx.url}/api/reviews/search?rating=9`);
  assert.equal(bad.status, 400);
  assert.ok(Array.isArray((await bad.json()).issues));
});

test("the build's _headers file gives each static file the headers the sidecar sends", async () => {
  const rules = parseHeadersFile(await readFile(join(dist, HEADERS_FILE), "utf8"));
  for (const path of paths()) {
    const { res } = await get(`${sidecar.url}${path}`, { "Accept-Encoding": "br, gzip" });
    const fromFile = headersFor(rules, path);
    for (const name of COMPARED) {
      if (name === "content-encoding") continue; // the host's own negotiation
      if (path.startsWith(IMMUTABLE_PREFIX) && (name === "content-type" || name === "vary")) continue;
      assert.equal(fromFile.get(name) ?? null, res.headers.get(name), `${path}: ${name}`);
    }
  }
  for (const rule of rules) {
    assert.ok(!rule.pattern.includes(MANIFEST_FILE) && !/\.(br|gz)$/.test(rule.pattern), rule.pattern);
  }
});

test("a rebuild of the same content keeps every nginx ETag and Last-Modified, and the old ETag gets 304", async () => {
  const validators = async () => {
    const seen = new Map<string, [string | null, string | null]>();
    for (const path of paths()) {
      for (const encoding of ENCODINGS) {
        const { res } = await get(`${nginx.url}${path}`, { "Accept-Encoding": encoding }, "HEAD");
        seen.set(`${path} ${encoding}`, [res.headers.get("etag"), res.headers.get("last-modified")]);
      }
    }
    return seen;
  };
  const before1 = await validators();
  const inode = (await stat(join(dist, "reviews.json"))).ino;
  const run = await runBuild({ CONTENT_DIR: SAMPLE_CONTENT, DIST_DIR: dist, BASE_URL });
  assert.equal(run.code, 0, run.stderr);
  assert.notEqual((await stat(join(dist, "reviews.json"))).ino, inode, "the rebuild wrote new files");
  const after1 = await validators();
  assert.deepEqual(after1, before1);
  for (const [key, [etag]] of before1) {
    const [path, encoding] = key.split(" ", 2);
    const res = await fetch(`${nginx.url}${path}`, {
      headers: { "Accept-Encoding": key.slice(path.length + 1), "If-None-Match": etag as string },
    });
    assert.equal(res.status, 304, `${path} (${encoding})`);
  }
});
