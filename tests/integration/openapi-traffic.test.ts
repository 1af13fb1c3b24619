// A slice of the traffic integrators and browsers send, each exchange held against the served OpenAPI document in
// both directions: a request the document accepts must not be refused as invalid, a request it does not accept must
// get a 4xx, and every answer must be documented (status, headers, media type, body schema), byte ranges included.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { HUB_FORM_MAX_BYTES, MAX_URL_BYTES } from "../../src/domain/limits.ts";
import { buildSample } from "../helpers/build.ts";
import { JSON_HEADERS } from "../helpers/mcp-http.ts";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

const BASE = "http://localhost:4321";
let sidecar: RunningSidecar;
let api: OpenApiValidator;
const statuses = new Map<number, number>();

before(async () => {
  sidecar = await startTestSidecar(await buildSample(BASE), { BASE_URL: BASE });
  api = new OpenApiValidator(await (await fetch(`${sidecar.url}/.well-known/openapi.json`)).json());
});
after(() => sidecar?.close());

/**
 * Sends one request and holds the exchange against the document; returns the answer and its body. `opaque`: the
 * request is refused for what no schema can judge (a cursor the service never issued, a missing MCP session), as
 * the 400 describes.
 */
async function send(path: string, init: RequestInit = {}, opaque = false): Promise<{ res: Response; body: string }> {
  const method = (init.method ?? "GET").toLowerCase();
  const url = `${sidecar.url}${path}`;
  const type = new Headers(init.headers).get("content-type")?.split(";")[0];
  const verdict = api.accepts(method, url, type ? { type, text: String(init.body ?? "") } : undefined);
  const res = await fetch(url, init);
  const body = method === "head" ? "" : await res.text();
  const what = `${method.toUpperCase()} ${path.slice(0, 120)} -> ${res.status}`;
  if (opaque) assert.equal(res.status, 400, what);
  else if (verdict.ok) assert.notEqual(res.status, 400, `${what}: the document accepts it: ${body.slice(0, 200)}`);
  else assert.ok(res.status >= 400 && res.status < 500, `${what}: the document refuses it (${verdict.why})`);
  await api.check(method, url, res, body);
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  return { res, body };
}

/** GET, HEAD and a conditional GET of a path: 200, 200 without body, 304. */
async function readThrice(path: string) {
  const { res } = await send(path);
  assert.equal(res.status, 200, path);
  await send(path, { method: "HEAD" });
  const etag = res.headers.get("etag");
  if (etag) assert.equal((await send(path, { headers: { "If-None-Match": etag } })).res.status, 304, path);
}

/**
 * The byte ranges of a static file (counted in its own bytes, Accept-Encoding: identity): the first ten bytes
 * resumed with its ETag (206), with the ETag of another version (the whole file, 200), and a range past its end (416).
 */
async function readRanges(path: string) {
  const identity = { "Accept-Encoding": "identity" };
  const whole = await send(path, { headers: identity });
  const size = Buffer.byteLength(whole.body);
  const etag = whole.res.headers.get("etag") as string;
  const part = await send(path, { headers: { ...identity, Range: "bytes=0-9", "If-Range": etag } });
  assert.equal(part.res.status, 206, path);
  assert.equal(part.res.headers.get("content-range"), `bytes 0-9/${size}`, path);
  const stale = await send(path, { headers: { ...identity, Range: "bytes=0-9", "If-Range": '"another-version"' } });
  assert.equal(stale.res.status, 200, path);
  const past = await send(path, { headers: { ...identity, Range: `bytes=${size + 10}-` } });
  assert.equal(past.res.status, 416, path);
  assert.equal(past.res.headers.get("content-range"), `bytes */${size}`, path);
}

test("static files, pages, the read API, the hub and MCP discovery: every exchange as documented", async () => {
  const dataset = JSON.parse((await send("/reviews.json")).body) as {
    business: { technicians: { id: string }[]; services: { id: string }[]; service_areas: { id: string }[] };
    reviews: { id: string; date: string }[];
  };
  const { business, reviews } = dataset;
  const technician = business.technicians[0].id;
  const files = [
    "/reviews.json",
    "/insights.json",
    "/api/feed.json",
    "/feed.xml",
    "/.well-known/openapi.json",
    "/",
    "/sitemap.xml",
    "/robots.txt",
    "/llms.txt",
    "/widget.js",
    "/widget-data/all.json",
    "/widget-data/all.reviews.json",
    `/widget-data/technician/${technician}.json`,
    `/widget-data/technician/${technician}.reviews.json`,
  ];
  for (const path of files) await readRanges(path);
  const rendered = [
    "/reviews/",
    `/reviews/${reviews[0].id}/`,
    "/reviews/page/2/",
    "/technicians/",
    `/technicians/${technician}/`,
    "/services/",
    `/services/${business.services[0].id}/`,
    "/areas/",
    `/areas/${business.service_areas[0].id}/`,
    "/widget/",
    "/docs/api/",
    "/search?rating=5",
    `/api/reviews/since/${reviews[5].date}`,
  ];
  for (const path of [...files, ...rendered]) await readThrice(path);
  // Pages and the API declare no ranges: a Range there must get the whole answer, as documented.
  for (const path of rendered) {
    assert.equal((await send(path, { headers: { Range: "bytes=0-9" } })).res.status, 200, `${path} with Range`);
  }
  for (const path of [
    "/reviews/no-such-review/",
    "/reviews/page/99999/",
    "/technicians/nobody/",
    "/widget-data/technician/nobody.json",
    "/search?rating=9",
    "/search?since=2025-02-30",
  ]) {
    assert.ok((await send(path)).res.status >= 400, path);
  }

  // The read API: filters, paging by cursor to the end, and the errors.
  let cursor: string | null = null;
  let pages = 0;
  do {
    const { body } = await send(`/api/reviews/search?min_rating=4&limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    cursor = (JSON.parse(body) as { next_cursor: string | null }).next_cursor;
    pages++;
  } while (cursor && pages < 10);
  assert.ok(pages > 1, "the search was paged");
  for (const q of [
    "rating=5&limit=3",
    `mentions_technician=${technician}`,
    `mentions_service=${business.services[0].id}`,
    "query=on%20time",
    "since=2025-01-01&until=2025-06-30",
    "rating=0",
    "rating=abc",
    "limit=101",
    "since=2025-13-01",
    "unknown=1",
    "rating=5&rating=4",
    `query=${"x".repeat(201)}`,
  ]) {
    await send(`/api/reviews/search?${q}`);
  }
  const date = reviews[Math.floor(reviews.length / 2)].date;
  const page = JSON.parse((await send(`/api/reviews/since/${date}?limit=5`)).body) as { next_cursor: string | null };
  assert.ok(page.next_cursor);
  await send(`/api/reviews/since/${date}?limit=5&cursor=${page.next_cursor}`);
  for (const bad of ["2025-02-30", "yesterday", `${date}?limit=0`]) await send(`/api/reviews/since/${bad}`);
  await send(`/api/reviews/since/${date}?cursor=nonsense`, {}, true);
  await send(`/api/reviews/search?query=${"x".repeat(MAX_URL_BYTES)}`);

  // The hub: its page, and what a subscriber's mistakes get (no callback is ever contacted here).
  await readThrice("/api/websub/hub");
  const form = (fields: Record<string, string>, type = "application/x-www-form-urlencoded") => ({
    method: "POST",
    headers: { "Content-Type": type },
    body: new URLSearchParams(fields).toString(),
  });
  const topic = `${BASE}/feed.xml`;
  for (const init of [
    form({ "hub.mode": "subscribe", "hub.topic": topic, "hub.callback": "http://127.0.0.1:9/cb" }),
    form({ "hub.mode": "subscribe", "hub.topic": `${BASE}/nope.xml`, "hub.callback": "https://127.0.0.1:9/cb" }),
    form({ "hub.mode": "publish", "hub.topic": topic, "hub.callback": "https://127.0.0.1:9/cb" }),
    form({ "hub.mode": "subscribe", "hub.topic": topic, "hub.callback": "https://127.0.0.1:9/cb" }, "application/json"),
    form({ pad: "x".repeat(HUB_FORM_MAX_BYTES) }),
  ]) {
    await send("/api/websub/hub", init);
  }

  // MCP discovery and one session, begun and ended.
  await send("/.well-known/mcp/catalog.json");
  await send("/mcp/server-card");
  const init = await send("/mcp", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "traffic", version: "1" } },
    }),
  });
  const session = { "Mcp-Session-Id": init.res.headers.get("mcp-session-id") as string };
  const rpc = (body: object, headers: Record<string, string> = session, opaque = false) =>
    send("/mcp", { method: "POST", headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) }, opaque);
  await rpc({ jsonrpc: "2.0", method: "notifications/initialized" });
  await rpc({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  // Without the session id: the protocol's rule, not the body's schema, refuses it.
  await rpc({ jsonrpc: "2.0", id: 3, method: "tools/list" }, {}, true);
  await send("/mcp", { method: "DELETE", headers: session });
  await send("/mcp", { method: "DELETE", headers: session });

  for (const status of [200, 202, 206, 304, 400, 404, 413, 414, 415, 416])
    assert.ok(statuses.get(status), `no ${status} seen`);
  assert.ok(api.checked > 100, `${api.checked} exchanges checked`);
});
