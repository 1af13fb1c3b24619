// Answers that could be large are streamed and paged, and the request line's edge cases get clear answers: since
// with HEAD, validators, pages and cursors over HTTP; byte ranges of static files; a duplicate Host, CONNECT,
// TRACE, OPTIONS * and an absolute-form target naming another origin.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { buildSample } from "../helpers/build.ts";
import { rawExchange } from "../helpers/raw-http.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

let sidecar: RunningSidecar;
let port: number;
const since = (date: string, query = "") => `${sidecar.url}/api/reviews/since/${date}${query}`;

before(async () => {
  sidecar = await startTestSidecar(await buildSample());
  port = Number(new URL(sidecar.url).port);
});
after(() => sidecar?.close());

test("since: HEAD has GET's headers and no body; Content-Length is the streamed body's length", async () => {
  const get = await fetch(since("2000-01-01"));
  const body = Buffer.from(await get.arrayBuffer());
  const head = await fetch(since("2000-01-01"), { method: "HEAD" });
  assert.equal(get.status, 200);
  assert.equal(Number(get.headers.get("content-length")), body.length);
  for (const name of ["content-length", "etag", "last-modified", "content-type", "cache-control"])
    assert.equal(head.headers.get(name), get.headers.get(name), name);
  assert.equal((await head.arrayBuffer()).byteLength, 0);
  const json = JSON.parse(body.toString("utf8"));
  assert.deepEqual(Object.keys(json), ["since", "count", "reviews"]);
  assert.equal(json.count, json.reviews.length);
  assert.ok(json.count > 100, "the sample's every review");
});

test("since: a matching ETag or Last-Modified gives 304; another date, limit or cursor another ETag", async () => {
  const first = await fetch(since("2025-01-01"));
  await first.arrayBuffer();
  const etag = first.headers.get("etag") as string;
  const lastModified = first.headers.get("last-modified") as string;
  for (const headers of [{ "If-None-Match": etag }, { "If-Modified-Since": lastModified }] as Record<
    string,
    string
  >[]) {
    const again = await fetch(since("2025-01-01"), { headers });
    assert.equal(again.status, 304, JSON.stringify(headers));
    assert.equal((await again.arrayBuffer()).byteLength, 0);
  }
  const others = await Promise.all(
    [since("2025-01-02"), since("2025-01-01", "?limit=5")].map(async (u) => (await fetch(u)).headers.get("etag")),
  );
  assert.equal(new Set([etag, ...others]).size, 3);
});

test("since: pages with limit and cursor concatenate to the default answer", async () => {
  const whole = (await (await fetch(since("2024-06-01"))).json()) as { reviews: { id: string }[] };
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res: Response = await fetch(since("2024-06-01", `?limit=17${cursor ? `&cursor=${cursor}` : ""}`));
    assert.equal(res.status, 200);
    const page = (await res.json()) as {
      total: number;
      count: number;
      limit: number;
      next_cursor: string | null;
      reviews: { id: string }[];
    };
    assert.equal(page.total, whole.reviews.length);
    assert.equal(page.limit, 17);
    assert.ok(page.count <= 17);
    ids.push(...page.reviews.map((r) => r.id));
    cursor = page.next_cursor;
  } while (cursor);
  assert.deepEqual(
    ids,
    whole.reviews.map((r) => r.id),
  );
  for (const bad of ["?limit=0", "?limit=1001", "?cursor=nope", "?limit=5&limit=6"]) {
    const res = await fetch(since("2024-06-01", bad));
    assert.equal(res.status, 400, bad);
    assert.ok(((await res.json()) as { issues: unknown[] }).issues.length > 0, bad);
  }
});

test("static files: Range gives 206 with the bytes asked for; If-Range of another version the whole file; 416 past the end", async () => {
  const url = `${sidecar.url}/reviews.json`;
  const whole = Buffer.from(await (await fetch(url, { headers: { "Accept-Encoding": "identity" } })).arrayBuffer());
  const plain = await fetch(url, { headers: { "Accept-Encoding": "identity" } });
  await plain.arrayBuffer();
  assert.equal(plain.headers.get("accept-ranges"), "bytes");
  const etag = plain.headers.get("etag") as string;
  const cases: [string, number, number][] = [
    ["bytes=0-99", 0, 100],
    ["bytes=1000-", 1000, whole.length],
    ["bytes=-50", whole.length - 50, whole.length],
  ];
  for (const [range, start, end] of cases) {
    const res = await fetch(url, { headers: { "Accept-Encoding": "identity", Range: range, "If-Range": etag } });
    assert.equal(res.status, 206, range);
    assert.equal(res.headers.get("content-range"), `bytes ${start}-${end - 1}/${whole.length}`, range);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), whole.subarray(start, end), range);
  }
  const stale = await fetch(url, {
    headers: { "Accept-Encoding": "identity", Range: "bytes=0-9", "If-Range": '"old"' },
  });
  assert.equal(stale.status, 200);
  assert.equal((await stale.arrayBuffer()).byteLength, whole.length);
  const past = await fetch(url, { headers: { "Accept-Encoding": "identity", Range: `bytes=${whole.length + 10}-` } });
  assert.equal(past.status, 416);
  assert.equal(past.headers.get("content-range"), `bytes */${whole.length}`);
  await past.arrayBuffer();
  const small = await fetch(`${sidecar.url}/.well-known/openapi.json`, {
    headers: { "Accept-Encoding": "identity", Range: "bytes=2-5" },
  });
  assert.equal(small.status, 206, "a file held in memory too");
  assert.equal(Buffer.from(await small.arrayBuffer()).length, 4);
});

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);

test("request line edges: duplicate Host 400, CONNECT and TRACE 501, OPTIONS * 204, a foreign absolute-form target 421", async () => {
  const exchange = (bytes: string) => rawExchange(port, bytes, { read: true, quietMs: 500 });
  const dup = await exchange("GET /reviews.json HTTP/1.1\r\nHost: localhost:4321\r\nHost: evil.example\r\n\r\n");
  assert.equal(statusOf(dup.received), 400, dup.received.slice(0, 200));
  const connect = await exchange("CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n");
  assert.equal(statusOf(connect.received), 501, connect.received.slice(0, 200));
  const trace = await exchange("TRACE / HTTP/1.1\r\nHost: localhost:4321\r\nConnection: close\r\n\r\n");
  assert.equal(statusOf(trace.received), 501, trace.received.slice(0, 200));
  const star = await exchange("OPTIONS * HTTP/1.1\r\nHost: localhost:4321\r\nConnection: close\r\n\r\n");
  assert.equal(statusOf(star.received), 204, star.received.slice(0, 200));
  assert.match(star.received, /\r\nAllow: GET, HEAD, POST, DELETE, OPTIONS\r\n/i);
  const foreign = await exchange(
    "GET http://evil.example/reviews.json HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
  );
  assert.equal(statusOf(foreign.received), 421, foreign.received.slice(0, 200));
  assert.doesNotMatch(foreign.received, /"reviews"/);
  const ours = await exchange(
    `GET http://127.0.0.1:${port}/.well-known/openapi.json HTTP/1.1\r\nHost: whatever\r\nConnection: close\r\n\r\n`,
  );
  assert.equal(statusOf(ours.received), 200, ours.received.slice(0, 200));
});
