// The fast path (sidecar/http/fast-path.ts) against the general path: the same app over the same build, once with
// the fast path and once without. Each request of the table goes to both, three times (the first sight of a URL
// fills the caches the fast path answers from); status, headers in order (Date aside) and body bytes must be
// equal, and so must the request log lines and the metrics' labels. The table also says which requests the fast
// path answers, so that the comparison cannot pass by the fast path never answering.
import assert from "node:assert/strict";
import type { Agent, Server } from "node:http";
import { after, before, test } from "node:test";
import { pino } from "pino";
import { createApp } from "../../sidecar/app.ts";
import { type BuildStore, createBuildStore } from "../../sidecar/build-store/build-store.ts";
import { createMetrics, type Metrics } from "../../sidecar/metrics.ts";
import { buildSample } from "../helpers/build.ts";
import { listenNotingFlatHead, type RawAnswer, rawExchange } from "../helpers/flat-head-server.ts";

const BASE = "http://localhost:4321";

interface Side {
  server: Server;
  url: string;
  agent: Agent;
  metrics: Metrics;
  logs: Record<string, unknown>[];
  /** Whether the last response was written by the fast path (one writeHead with a flat header array). */
  lastFast: boolean;
}

type Answer = RawAnswer;

let store: BuildStore;
let fast: Side;
let general: Side;

async function side(store: BuildStore, distDir: string, fastPath: boolean): Promise<Side> {
  const logs: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const metrics = createMetrics();
  // Behind a trusted proxy, so that the logged client address comes from X-Forwarded-For (as Express reads it).
  const app = metrics.instrument(createApp({ store, logger, distDir, fastPath, trustProxy: ["loopback"] }));
  const s = { logs, metrics, lastFast: false } as Side;
  Object.assign(s, await listenNotingFlatHead(app, (flat) => (s.lastFast = flat)));
  return s;
}

function send(s: Side, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const target = path.startsWith("http:") ? path.replace(BASE, s.url) : path;
  return rawExchange(s.url, s.agent, { method, path: target, headers });
}

before(async () => {
  const dist = await buildSample(BASE);
  store = await createBuildStore({ distDir: dist, baseUrl: BASE, logger: pino({ level: "silent" }) });
  fast = await side(store, dist, true);
  general = await side(store, dist, false);
});

after(async () => {
  for (const s of [fast, general]) {
    s.agent.destroy();
    await new Promise((r) => s.server.close(r));
  }
  store.close();
});

test("the fast path answers exactly as the general path: status, headers, bytes, logs and metrics", async () => {
  const snapshot = store.current();
  const json = snapshot.files.get("/reviews.json");
  assert.ok(json?.br && json.gzip, "reviews.json has precompressed variants");
  // Sent to both sides, so that both logs and metrics see the same requests.
  const etagOf = async (path: string, headers: Record<string, string> = {}) => {
    await send(fast, "GET", path, headers);
    const { headers: got } = await send(general, "GET", path, headers);
    return got.find((h) => h.startsWith("ETag: "))?.slice(6) as string;
  };
  const etag = await etagOf("/reviews.json");
  const brEtag = await etagOf("/reviews.json", { "Accept-Encoding": "br" });
  const since = "/api/reviews/since/2024-01-01";
  const sinceEtag = await etagOf(since);
  const lastModified = snapshot.lastModified as string;
  assert.ok(etag && brEtag && sinceEtag && lastModified);
  const older = new Date(Date.parse(lastModified) - 1000).toUTCString();
  const search = "/api/reviews/search?rating=5&limit=3";

  // [method, path, headers, answered by the fast path on a repeat]
  const table: [string, string, Record<string, string>, boolean][] = [
    ["GET", "/reviews.json", {}, true],
    ["HEAD", "/reviews.json", {}, true],
    ["GET", "/reviews.json", { "Accept-Encoding": "br" }, true],
    ["GET", "/reviews.json", { "Accept-Encoding": "gzip, deflate" }, true],
    ["GET", "/reviews.json", { "Accept-Encoding": "br;q=0, gzip;q=0.5" }, true],
    ["GET", "/reviews.json", { "Accept-Encoding": "*;q=0" }, true],
    ["GET", "/reviews.json", { "Accept-Encoding": "identity;q=0, *" }, true],
    ["GET", "/reviews.json", { "If-None-Match": etag }, true],
    ["HEAD", "/reviews.json", { "If-None-Match": etag }, true],
    ["GET", "/reviews.json", { "If-None-Match": `W/${etag}` }, true],
    ["GET", "/reviews.json", { "If-None-Match": `"nope", ${etag}` }, true],
    ["GET", "/reviews.json", { "If-None-Match": "*" }, true],
    ["GET", "/reviews.json", { "If-None-Match": brEtag }, true],
    ["GET", "/reviews.json", { "Accept-Encoding": "br", "If-None-Match": brEtag }, true],
    ["GET", "/reviews.json", { "If-None-Match": '"nope"', "If-Modified-Since": lastModified }, true],
    ["GET", "/reviews.json", { "If-None-Match": etag, "If-Modified-Since": older }, true],
    ["GET", "/reviews.json", { "If-Modified-Since": lastModified }, true],
    ["GET", "/reviews.json", { "If-Modified-Since": older }, true],
    ["GET", "/reviews.json", { "If-Modified-Since": "not a date" }, true],
    ["GET", "/reviews.json?x=1", {}, true],
    ["GET", `${BASE}/reviews.json`, {}, true],
    ["GET", "/api/feed.json", { "If-None-Match": "W/" }, true],
    ["GET", "/feed.xml", {}, true],
    ["GET", "/", {}, true],
    ["GET", "/index.html", { "If-Modified-Since": lastModified }, true],
    ["GET", "/favicon.svg", { "If-Modified-Since": lastModified, "Accept-Encoding": "br" }, true],
    ["GET", "/reviews/", {}, false],
    ["GET", "/robots.txt", {}, true],
    ["GET", search, {}, true],
    ["HEAD", search, {}, true],
    ["GET", search, { "If-None-Match": "*" }, true],
    ["GET", "/api/reviews/search", { "Accept-Encoding": "br" }, true],
    ["GET", "/api/reviews/search?query=caf%C3%A9", {}, true],
    ["GET", `${search}#frag`, {}, false],
    ["GET", "/api/reviews/search/?rating=5", {}, false],
    ["GET", "/API/reviews/search?rating=5", {}, false],
    ["GET", "/api/reviews/search?rating=9", {}, false],
    ["GET", "/api/reviews/search?rating=5&rating=4", {}, false],
    ["GET", "/api/reviews/search?nope=1", {}, false],
    ["GET", "/api/reviews/search?cursor=%zz", {}, false],
    ["POST", search, {}, false],
    ["DELETE", "/reviews.json", {}, false],
    ["OPTIONS", search, { Origin: "https://a.example", "Access-Control-Request-Method": "GET" }, false],
    ["GET", since, {}, true],
    ["GET", since, { "X-Forwarded-For": "203.0.113.7" }, true],
    ["GET", search, { "X-Forwarded-For": "198.51.100.1, 203.0.113.8" }, true],
    ["GET", "/reviews.json", { "X-Forwarded-For": "203.0.113.9" }, true],
    ["HEAD", since, {}, true],
    ["GET", since, { "If-None-Match": sinceEtag }, true],
    ["HEAD", since, { "If-None-Match": sinceEtag }, true],
    ["GET", since, { "If-None-Match": `W/${sinceEtag}` }, true],
    ["GET", since, { "If-None-Match": "*" }, true],
    ["GET", since, { "If-None-Match": '"nope"', "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" }, true],
    ["GET", since, { "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" }, true],
    ["GET", since, { "If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT" }, true],
    ["GET", `${since}?`, {}, true],
    ["GET", `${since}/`, {}, true],
    ["GET", "/api/reviews/since/2024%2D01-01", {}, true],
    ["GET", `${BASE}${since}`, { "If-None-Match": sinceEtag }, true],
    ["GET", `${since}?x=1`, {}, false],
    ["GET", "/api/reviews/since/2024-02-30", {}, false],
    ["GET", "/api/reviews/since/%zz", {}, false],
    ["GET", "/api/reviews/since/", {}, false],
    ["PUT", since, {}, false],
    ["GET", "/no/such/path", {}, false],
    ["GET", "/no/such/path", { Accept: "text/html" }, false],
    ["GET", "/healthz", {}, false],
    ["GET", `/${"a".repeat(3000)}`, {}, false],
  ];
  for (const [method, path, headers, answeredFast] of table) {
    const what = `${method} ${path.slice(0, 80)} ${JSON.stringify(headers)}`;
    for (let round = 0; round < 3; round++) {
      const want = await send(general, method, path, headers);
      assert.equal(general.lastFast, false, `${what}: the general path never takes the fast path`);
      const got = await send(fast, method, path, headers);
      assert.equal(got.status, want.status, what);
      assert.deepEqual(got.headers, want.headers, what);
      assert.ok(got.body.equals(want.body), `${what}: body bytes`);
      if (round > 0) assert.equal(fast.lastFast, answeredFast, `${what}: answered on the fast path`);
    }
  }

  await new Promise((r) => setTimeout(r, 50));
  const lines = (s: Side) =>
    s.logs.filter((l) => l.event === "http.request").map(({ ms: _ms, time: _time, pid: _pid, ...rest }) => rest);
  assert.ok(lines(fast).length >= table.length * 3);
  for (const client of ["203.0.113.7", "203.0.113.8", "203.0.113.9"])
    assert.equal(lines(fast).filter((l) => l.client === client).length, 3, `logged as ${client}`);
  assert.deepEqual(lines(fast), lines(general), "the same request log lines");
  const counts = async (s: Side) =>
    (await s.metrics.httpDuration.get()).values
      .filter((v) => v.metricName?.endsWith("_count"))
      .map((v) => `${v.labels.method} ${v.labels.route} ${v.labels.status} ${v.value}`)
      .sort();
  const fastCounts = await counts(fast);
  assert.ok(fastCounts.some((c) => c.startsWith("GET /api/reviews/since/:date 304")));
  assert.ok(fastCounts.some((c) => c.startsWith("HEAD /api/reviews/search 200")));
  assert.deepEqual(fastCounts, await counts(general), "the same metrics labels and counts");
});
