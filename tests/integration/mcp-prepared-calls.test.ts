// Repeated tools/call requests answered before Express (sidecar/mcp/prepared-calls.ts) against the general path:
// the same app and MCP router over the same build, once with the answer lane and once without. Each request of
// the table goes to both, three times, each time with another id (the first sight fills what the lane answers
// from); status, headers in order (Date aside) and body bytes must be equal, and so must the request log lines
// and the MCP request counts. The table says which requests the lane answers, so the comparison cannot pass by
// the lane never answering; the stateful cases (an ended session, a foreign Host) must never be answered there.
import assert from "node:assert/strict";
import type { Agent, Server } from "node:http";
import { after, before, test } from "node:test";
import { pino } from "pino";
import { createApp } from "../../sidecar/app.ts";
import { type BuildStore, createBuildStore } from "../../sidecar/build-store/build-store.ts";
import { createMcpRouter } from "../../sidecar/mcp/mcp-route.ts";
import { buildSample } from "../helpers/build.ts";
import { listenNotingFlatHead, type RawAnswer, rawExchange } from "../helpers/flat-head-server.ts";
import { JSON_HEADERS, MODERN_META } from "../helpers/mcp-http.ts";

const BASE = "http://localhost:4321";

interface Side {
  server: Server;
  url: string;
  agent: Agent;
  logs: Record<string, unknown>[];
  counted: string[];
  close(): Promise<void>;
  /** Whether the last response was written by the lane (one writeHead with a flat header array). */
  lastLane: boolean;
}

type Reply = RawAnswer;

let store: BuildStore;
/** What the sides see as the current build: the store's, or a stand-in for a newly switched build. */
let switched: ReturnType<BuildStore["current"]> | undefined;
let lane: Side;
let general: Side;

async function side(store: BuildStore, withLane: boolean): Promise<Side> {
  const logs: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const counted: string[] = [];
  const mcp = createMcpRouter({
    store,
    logger,
    version: "1",
    config: {
      BASE_URL: BASE,
      MCP_SESSION_IDLE_SECONDS: 600,
      MCP_UNINITIALIZED_SESSION_SECONDS: 60,
      MCP_MAX_SESSIONS: 100,
      MCP_MAX_SESSIONS_PER_CLIENT: 50,
      MCP_SESSION_SECRET: undefined,
    },
    onRequest: (method, era) => counted.push(`${method} ${era}`),
  });
  const app = createApp({ store, logger, routers: [mcp.router], mcpLane: withLane ? mcp.lane : undefined });
  const s = { logs, counted, lastLane: false } as Side;
  Object.assign(s, await listenNotingFlatHead(app, (flat) => (s.lastLane = flat)));
  s.close = async () => {
    s.agent.destroy();
    await new Promise((r) => s.server.close(r));
    await mcp.close();
  };
  return s;
}

function post(s: Side, body: string, headers: Record<string, string>, method = "POST"): Promise<Reply> {
  const port = new URL(s.url).port;
  const h = { ...headers, Host: (headers.Host ?? `127.0.0.1:${port}`).replace("PORT", port) };
  return rawExchange(s.url, s.agent, { method, path: "/mcp", headers: h, body });
}

/** A 2025-11-25 session on `s`: its id. */
async function session(s: Side): Promise<string> {
  const init = await post(
    s,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
    JSON_HEADERS,
  );
  const line = init.headers.find((h) => h.toLowerCase().startsWith("mcp-session-id: "));
  assert.ok(line, `initialize answered ${init.status}`);
  const id = line.slice("mcp-session-id: ".length);
  const legacy = { ...JSON_HEADERS, "Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-11-25" };
  await post(s, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), legacy);
  return id;
}

before(async () => {
  const dist = await buildSample(BASE);
  store = await createBuildStore({ distDir: dist, baseUrl: BASE, logger: pino({ level: "silent" }) });
  const served: BuildStore = { ...store, current: () => switched ?? store.current() };
  lane = await side(served, true);
  general = await side(served, false);
});

after(async () => {
  await lane.close();
  await general.close();
  store.close();
});

const call = (id: unknown, name: string, args: unknown, meta?: object) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
  });

/** A call as the SDK's client writes it: method and params first, then jsonrpc and id. */
const sdkOrder = (id: unknown, name: string, args: unknown, meta?: object) =>
  JSON.stringify({
    method: "tools/call",
    params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
    jsonrpc: "2.0",
    id,
  });

test("repeated tools/call answers from the lane are the general path's: status, headers, bytes, logs, counts", async () => {
  const sessions = { lane: await session(lane), general: await session(general) };
  const legacy = (sessionId: string) => ({
    ...JSON_HEADERS,
    "Mcp-Session-Id": sessionId,
    "MCP-Protocol-Version": "2025-11-25",
  });
  const modern = (name: string) => ({
    ...JSON_HEADERS,
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "tools/call",
    "Mcp-Name": name,
  });
  const ids = [7, 'a\u00e9"b', 2 ** 40];
  // [what, body for an id, headers for a side's session, answered by the lane on a repeat]
  type Row = [string, (id: unknown) => string, (sessionId: string) => Record<string, string>, boolean];
  const table: Row[] = [
    ["legacy search", (id) => call(id, "search_reviews", { rating: 5, limit: 3 }), legacy, true],
    ["legacy search, another key order", (id) => call(id, "search_reviews", { limit: 3, rating: 5 }), legacy, true],
    ["legacy get_business", (id) => call(id, "get_business", {}), legacy, true],
    [
      "modern search",
      (id) => call(id, "search_reviews", { query: "great" }, MODERN_META),
      () => modern("search_reviews"),
      true,
    ],
    [
      "modern get_insights",
      (id) => call(id, "get_insights", { section: "aspects" }, MODERN_META),
      () => modern("get_insights"),
      true,
    ],
    ["invalid arguments (isError)", (id) => call(id, "search_reviews", { limit: 0 }), legacy, false],
    ["unknown tool", (id) => call(id, "no_such_tool", {}), legacy, false],
    ["modern unknown tool", (id) => call(id, "no_such_tool", {}, MODERN_META), () => modern("no_such_tool"), false],
    ["progress token", (id) => call(id, "get_business", {}, { progressToken: 5 }), legacy, false],
    ["float id", () => call(1.5, "get_business", {}), legacy, false],
    ["extra params member", (id) => call(id, "get_business", {}).replace('"name"', '"x":1,"name"'), legacy, true],
    // The lane remembers a body without its id (JSON.stringify's order: id second; the SDK client's: id last).
    ["SDK client's member order", (id) => sdkOrder(id, "search_reviews", { rating: 2, limit: 2 }), legacy, true],
    [
      "modern, SDK client's member order",
      (id) => sdkOrder(id, "search_reviews", { rating: 3 }, MODERN_META),
      () => modern("search_reviews"),
      true,
    ],
    // A later id member is the one JSON.parse keeps: the answer carries it, whatever the first says.
    ["two id members", (id) => call(id, "get_business", {}).replace(/}$/, ',"id":"second"}'), legacy, true],
    ["two id members, SDK order", (id) => sdkOrder(id, "get_business", {}).replace('{"', '{"id":0,"'), legacy, true],
    [
      "id-like text inside the arguments",
      (id) => sdkOrder(id, "search_reviews", { query: 'x","id":7}' }),
      legacy,
      true,
    ],
    ["string id with an escape", (id) => call(`q\n${String(id)}`, "get_business", {}), legacy, true],
    [
      "id with leading zero",
      (id) => call(7, "get_business", {}).replace('"id":7', `"id":0${String(id).length}`),
      legacy,
      false,
    ],
    ["ping", (id) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }), legacy, false],
    ["batch", (id) => `[${call(id, "get_business", {})}]`, legacy, false],
    ["no session", (id) => call(id, "get_business", {}), () => JSON_HEADERS, false],
    [
      "another Accept",
      (id) => call(id, "get_business", {}),
      (s) => ({ ...legacy(s), Accept: "application/json" }),
      false,
    ],
    ["foreign Host", (id) => call(id, "get_business", {}), (s) => ({ ...legacy(s), Host: "evil.example" }), false],
    [
      "charset parameter",
      (id) => call(id, "get_business", {}),
      (s) => ({ ...legacy(s), "Content-Type": "application/json; charset=utf-8" }),
      false,
    ],
    ["byte order mark", (id) => `\uFEFF${call(id, "get_business", {})}`, legacy, false],
    ["broken JSON", () => '{"jsonrpc":"2.0",', legacy, false],
  ];
  const compare = async (what: string, bodyOf: (id: unknown) => string, headersOf: Row[2], answered: boolean) => {
    for (let round = 0; round < 3; round++) {
      const body = bodyOf(ids[round]);
      const want = await post(general, body, headersOf(sessions.general));
      assert.equal(general.lastLane, false, `${what}: the general path never takes the lane`);
      const got = await post(lane, body, headersOf(sessions.lane));
      assert.equal(got.status, want.status, what);
      assert.deepEqual(got.headers, want.headers, what);
      assert.equal(got.body.toString(), want.body.toString(), `${what}: body`);
      if (round > 0) assert.equal(lane.lastLane, answered, `${what}: answered by the lane`);
    }
  };
  for (const [what, bodyOf, headersOf, answered] of table) await compare(what, bodyOf, headersOf, answered);

  // An ended session: its kept answers are not given to it any more (404, as on the general path).
  for (const s of [lane, general]) {
    const id = s === lane ? sessions.lane : sessions.general;
    const ended = await post(s, "", { ...legacy(id) }, "DELETE");
    assert.equal(ended.status, 200);
  }
  await compare("ended session", (id) => call(id, "search_reviews", { rating: 5, limit: 3 }), legacy, false);

  await new Promise((r) => setTimeout(r, 50));
  const lines = (s: Side) =>
    s.logs.filter((l) => l.event === "http.request").map(({ ms: _ms, time: _time, pid: _pid, ...rest }) => rest);
  assert.ok(lines(lane).length >= table.length * 3);
  assert.deepEqual(lines(lane), lines(general));
  assert.deepEqual(lane.counted, general.counted);
});

test("answers kept on one build are not given on the next", async () => {
  const sessions = { lane: await session(lane), general: await session(general) };
  const headers = (sessionId: string) => ({
    ...JSON_HEADERS,
    "Mcp-Session-Id": sessionId,
    "MCP-Protocol-Version": "2025-11-25",
  });
  const body = call(9, "search_reviews", { rating: 4, limit: 2 });
  const both = async () => {
    const want = await post(general, body, headers(sessions.general));
    const got = await post(lane, body, headers(sessions.lane));
    assert.equal(got.body.toString(), want.body.toString());
    return lane.lastLane;
  };
  assert.deepEqual([await both(), await both()], [false, true]);
  // Another build object (the same data): what was kept belongs to the build it was answered on.
  switched = Object.create(store.current());
  try {
    assert.deepEqual([await both(), await both()], [false, true]);
  } finally {
    switched = undefined;
  }
});
