// Repeated tools/call requests answered before Express (sidecar/mcp/prepared-calls.ts) against the general path:
// the same app and MCP router over the same build, once with the answer lane and once without. Each request of
// the table goes to both, three times, each time with another id (the first sight fills what the lane answers
// from); status, headers in order (Date aside) and body bytes must be equal, and so must the request log lines
// and the MCP request counts. The table says which requests the lane answers, so the comparison cannot pass by
// the lane never answering; the stateful cases (an ended session, a foreign Host) must never be answered there.
import assert from "node:assert/strict";
import type { Agent, Server } from "node:http";
import { connect } from "node:net";
import { after, before, test } from "node:test";
import fc from "fast-check";
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

/** Headers of a 2025-11-25 request in `sessionId`, and of a 2026-07-28 request calling `name`. */
const legacyHeaders = (sessionId: string): Record<string, string> => ({
  ...JSON_HEADERS,
  "Mcp-Session-Id": sessionId,
  "MCP-Protocol-Version": "2025-11-25",
});
const modernHeaders = (name: string): Record<string, string> => ({
  ...JSON_HEADERS,
  "MCP-Protocol-Version": "2026-07-28",
  "Mcp-Method": "tools/call",
  "Mcp-Name": name,
});

/** `body` to the general path, then to the lane: both answers, and whether the lane answered it. */
async function both(body: string, headersOf: (side: "lane" | "general") => Record<string, string>) {
  const want = await post(general, body, headersOf("general"));
  const got = await post(lane, body, headersOf("lane"));
  return { want, got, answered: lane.lastLane };
}

const sameAnswer = (what: string, a: { want: Reply; got: Reply }) => {
  assert.equal(a.got.status, a.want.status, what);
  assert.deepEqual(a.got.headers, a.want.headers, what);
  assert.equal(a.got.body.toString(), a.want.body.toString(), `${what}: body`);
};

test("JSON spelled every way: numbers, escapes, whitespace, duplicate members, key order, unicode", async () => {
  const sessions = { lane: await session(lane), general: await session(general) };
  const legacy = (side: "lane" | "general") => legacyHeaders(sessions[side]);
  const P = '{"name":"search_reviews","arguments":{"rating":4,"limit":2}}';
  // [what, the bodies sent in turn (a first sight, then repeats), headers, answered by the lane on the last]
  type Row = [string, string[], (side: "lane" | "general") => Record<string, string>, boolean];
  const first = (id: string, params = P) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`;
  const last = (id: string, params = P) => `{"method":"tools/call","params":${params},"jsonrpc":"2.0","id":${id}}`;
  const table: Row[] = [
    // Ids JSON.parse reads as safe integers although their text is not a plain token: the parse path.
    ["id 1.0, 1e3, -0, 1E0", [first("1.0"), first("1e3"), first("-0"), first("1E0")], legacy, true],
    ["id -0 as a plain token", [first("5"), first("-0"), last("-0")], legacy, true],
    ["the largest plain token", [first("1"), first("999999999999999"), first("-999999999999999")], legacy, true],
    ["safe ids past 15 digits", [first("1"), first("9007199254740991"), first("-9007199254740991")], legacy, true],
    ["unsafe integer ids", [first("1"), first("9007199254740993"), first("12345678901234567890")], legacy, false],
    ["ids past the double range", [first("1"), first("1e999"), first("-1e400")], legacy, false],
    ["id null", [first("1"), first("null")], legacy, false],
    ["id true", [first("1"), first("true")], legacy, false],
    ["id an object", [first("1"), first('{"id":1}')], legacy, false],
    // String ids: escapes (only the parse path), quotes and backslashes, unicode, empty.
    ["string ids with escapes", [first('"a"'), first('"\\u0061"'), first('"q\\"\\\\\\/"')], legacy, true],
    ["string ids, unicode", [first('"x"'), first('"\u00e9\u{1f600}\u2028"'), last('"\u{1f600}"')], legacy, true],
    ["string id, lone surrogate", [first('"x"'), first('"\\ud800"'), first('"\\udc00x"')], legacy, true],
    ["empty string id", [first('"x"'), first('""'), last('""')], legacy, true],
    ["string id that looks like a number", [first("12"), first('"12"'), last('"12"')], legacy, true],
    // Whitespace anywhere JSON allows it.
    ["whitespace around the id", [first("1"), first(" 2 "), first("\n3\t"), last(" 4 ")], legacy, true],
    ["pretty-printed", [first("1"), JSON.stringify(JSON.parse(first("2")), null, 2)], legacy, true],
    ["a trailing newline", [first("1"), `${first("2")}\n`, `${last("3")}\r\n`], legacy, true],
    ["leading whitespace", [first("1"), ` ${first("2")}`, `\n${last("3")}`], legacy, true],
    // Duplicate members: JSON.parse keeps the last, and so does every path.
    [
      "two id members, either place",
      [first("1"), first("2").replace(/}$/, ',"id":"z"}'), last("3").replace('{"', '{"id":4,"')],
      legacy,
      true,
    ],
    ["a later id member that is null", [first("1"), first("2").replace(/}$/, ',"id":null}')], legacy, false],
    ["two method members", [first("1"), first("2").replace('"method"', '"method":"ping","method"')], legacy, true],
    ["a later method member", [first("1"), first("2").replace(/}$/, ',"method":"ping"}')], legacy, false],
    ["a later jsonrpc member", [first("1"), first("2").replace(/}$/, ',"jsonrpc":"1.0"}')], legacy, false],
    [
      "two params members",
      [first("1"), first("2").replace('"params":', '"params":{"name":"get_business"},"params":')],
      legacy,
      true,
    ],
    ["__proto__ member", [first("1"), first("2").replace(/}$/, ',"__proto__":{}}')], legacy, false],
    // Key order of the message: id in the middle is neither place; every order is answered by the parse path.
    [
      "id between method and params",
      [
        `{"jsonrpc":"2.0","method":"tools/call","id":1,"params":${P}}`,
        `{"id":2,"jsonrpc":"2.0","method":"tools/call","params":${P}}`,
      ],
      legacy,
      true,
    ],
    // Numbers in params, spelled another way than JSON.stringify writes them.
    [
      "argument numbers 4, 4.0, 4e0, 0.4e1",
      ["4", "4.0", "4e0", "0.4e1"].map((n) => first("7", P.replace('"rating":4', `"rating":${n}`))),
      legacy,
      true,
    ],
    [
      "limit 1e1 and 10",
      [first("1", P.replace('"limit":2', '"limit":10')), first("2", P.replace('"limit":2', '"limit":1e1'))],
      legacy,
      true,
    ],
    [
      "extra params member Infinity, then null",
      [first("1", P.replace(/}$/, ',"x":1e999}')), first("2", P.replace(/}$/, ',"x":null}'))],
      legacy,
      true,
    ],
    [
      "extra params member -0, then 0",
      [
        first("1", P.replace(/}$/, ',"x":-0}')),
        first("2", P.replace(/}$/, ',"x":0}')),
        first("3", P.replace(/}$/, ',"x":-0}')),
      ],
      legacy,
      true,
    ],
    [
      "rating -0, then 0",
      [first("1", P.replace('"rating":4', '"rating":-0')), first("2", P.replace('"rating":4', '"rating":0'))],
      legacy,
      false,
    ],
    [
      "a task with ttl Infinity, then null",
      [first("1", P.replace(/}$/, ',"task":{"ttl":1e999}}')), first("2", P.replace(/}$/, ',"task":{"ttl":null}}'))],
      legacy,
      false,
    ],
    [
      "a task with ttl -0, then 0",
      [first("1", P.replace(/}$/, ',"task":{"ttl":-0}}')), first("2", P.replace(/}$/, ',"task":{"ttl":0}}'))],
      legacy,
      true,
    ],
    // Strings in the arguments: escapes of the same text, id-like text, unicode.
    [
      "the same query escaped two ways",
      ['{"query":"great"}', '{"query":"gr\\u0065at"}', '{"query":"\\u0067reat"}'].map((a, i) =>
        first(String(i), `{"name":"search_reviews","arguments":${a}}`),
      ),
      legacy,
      true,
    ],
    [
      "id-like text ending the query",
      [2, 3, 4].map((i) => last(String(i), `{"name":"search_reviews","arguments":{"query":"a\\",\\"id\\":${i}}"}}`)),
      legacy,
      true,
    ],
    [
      "unicode query, lone surrogate, U+2028",
      ['"\u{1f600}"', '"\\ud83d"', '"\u2028\u2029"', '"\\u0000x"'].map((q, i) =>
        first(String(i), `{"name":"search_reviews","arguments":{"query":${q}}}`),
      ),
      legacy,
      true,
    ],
    // A body that is a prefix of another, and one that extends another.
    [
      "a body and its extension",
      [first("1"), first("2", P.replace(/}$/, ',"x":1}')), first("3"), first("4", P.replace(/}$/, ',"x":1}'))],
      legacy,
      true,
    ],
    ["a body cut short", [first("1"), first("2").slice(0, -1)], legacy, false],
    // A notification: no answer from either.
    ["tools/call without an id", [first("1"), first("1").replace('"id":1,', "")], legacy, false],
    // Over the memo's 2,048 characters but under the body limit: the parse path.
    [
      "a long body",
      [2, 3, 4].map((i) => first(String(i), P.replace(/}$/, `,"x":"${"y".repeat(3000)}"}`))),
      legacy,
      true,
    ],
    // Over the body limit: 413 from both.
    ["over the body limit", [first("1", P.replace(/}$/, `,"x":"${"y".repeat(70_000)}"}`))], legacy, false],
  ];
  for (const [what, bodies, headersOf, answered] of table) {
    let final: { want: Reply; got: Reply; answered: boolean } | undefined;
    for (const [i, body] of bodies.entries()) {
      final = await both(body, headersOf);
      sameAnswer(`${what} #${i}`, final);
    }
    // Once more, every body: the memo and the kept answers filled.
    for (const [i, body] of bodies.entries()) {
      final = await both(body, headersOf);
      sameAnswer(`${what} #${i}, again`, final);
    }
    assert.equal(final?.answered, answered, `${what}: answered by the lane`);
  }
});

test("headers spelled every way: Content-Type, Accept, sessions, versions, Host, encodings", async () => {
  const sessions = { lane: await session(lane), general: await session(general) };
  // A second session on each side: it gets what the first one's calls kept.
  const second = { lane: await session(lane), general: await session(general) };
  type Side = "lane" | "general";
  const legacy = (side: Side) => legacyHeaders(sessions[side]);
  const with_ = (extra: Record<string, string>) => (side: Side) => ({ ...legacy(side), ...extra });
  const search = (id: unknown) => call(id, "search_reviews", { rating: 1, limit: 4 });
  const modernSearch = (id: unknown) => sdkOrder(id, "search_reviews", { rating: 1, limit: 4 }, MODERN_META);
  type Row = [string, (id: unknown) => string, (side: Side) => Record<string, string>, boolean];
  const table: Row[] = [
    ["Content-Type in capitals", search, with_({ "Content-Type": "Application/JSON" }), true],
    ["charset without a space", search, with_({ "Content-Type": "application/json;charset=utf-8" }), false],
    ["charset UTF-8", search, with_({ "Content-Type": "application/json; charset=UTF-8" }), false],
    ["another charset", search, with_({ "Content-Type": "application/json; charset=latin1" }), false],
    ["text/plain", search, with_({ "Content-Type": "text/plain" }), false],
    ["a +json type", search, with_({ "Content-Type": "application/merge-patch+json" }), false],
    ["Content-Encoding identity", search, with_({ "Content-Encoding": "identity" }), false],
    ["Accept without a space", search, with_({ Accept: "application/json,text/event-stream" }), true],
    ["Accept the other way round", search, with_({ Accept: "text/event-stream, application/json" }), true],
    ["Accept with q values", search, with_({ Accept: "application/json;q=0.9, text/event-stream;q=0.1" }), true],
    ["Accept */*", search, with_({ Accept: "*/*" }), false],
    ["Accept only JSON", search, with_({ Accept: "application/json" }), false],
    ["an older revision's header in the session", search, with_({ "MCP-Protocol-Version": "2025-06-18" }), true],
    ["an unsupported revision header", search, with_({ "MCP-Protocol-Version": "2024-01-01" }), false],
    ["no revision header", search, (side) => ({ ...JSON_HEADERS, "Mcp-Session-Id": sessions[side] }), true],
    ["a second session", search, (side) => legacyHeaders(second[side]), true],
    [
      "the other server's session",
      search,
      (side) => legacyHeaders(sessions[side === "lane" ? "general" : "lane"]),
      false,
    ],
    ["a forged session", search, () => legacyHeaders("x".repeat(40)), false],
    ["Host in capitals", search, with_({ Host: "LOCALHOST:PORT" }), true],
    ["Host without the port", search, with_({ Host: "127.0.0.1" }), false],
    ["modern, SDK order", modernSearch, () => modernHeaders("search_reviews"), true],
    [
      "modern with a session header",
      modernSearch,
      (side) => ({ ...modernHeaders("search_reviews"), "Mcp-Session-Id": sessions[side] }),
      true,
    ],
    ["modern, Mcp-Name in capitals", modernSearch, () => modernHeaders("SEARCH_REVIEWS"), false],
    [
      "modern, Mcp-Method in capitals",
      modernSearch,
      () => ({ ...modernHeaders("search_reviews"), "Mcp-Method": "TOOLS/CALL" }),
      false,
    ],
    ["modern body, 2025 headers", modernSearch, legacy, false],
    ["2025 body, modern headers", search, () => modernHeaders("search_reviews"), false],
  ];
  const ids = [3, "r-3", -3];
  for (const [what, bodyOf, headersOf, answered] of table) {
    for (const [round, id] of ids.entries()) {
      const a = await both(bodyOf(id), headersOf);
      sameAnswer(`${what} #${round}`, a);
      if (round > 0) assert.equal(a.answered, answered, `${what}: answered by the lane`);
    }
  }
});

/** `requests` written to `s` in one go on a new connection (pipelined), the last closing it: all it got back. */
function pipelined(s: Side, requests: { body: string; headers: Record<string, string> }[]): Promise<string> {
  const { port } = new URL(s.url);
  const wire = requests
    .map(({ body, headers }, i) => {
      const h = { Host: `127.0.0.1:${port}`, ...headers, "Content-Length": String(Buffer.byteLength(body)) };
      if (i === requests.length - 1) Object.assign(h, { Connection: "close" });
      const lines = Object.entries(h).map(([k, v]) => `${k}: ${v}\r\n`);
      return `POST /mcp HTTP/1.1\r\n${lines.join("")}\r\n${body}`;
    })
    .join("");
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("end", () =>
      resolve(
        Buffer.concat(chunks)
          .toString()
          .replace(/^Date: .*\r\n/gm, ""),
      ),
    );
    socket.end(wire);
  });
}

test("pipelined requests: the lane's answers, sync and after a session check, come back in order", async () => {
  const sessions = { lane: await session(lane), general: await session(general) };
  const legacyCall = (id: unknown) => call(id, "get_insights", {});
  const modernCall = (id: unknown) => call(id, "get_insights", {}, MODERN_META);
  const requestsOf = (side: "lane" | "general") => [
    { body: legacyCall(1), headers: legacyHeaders(sessions[side]) },
    { body: modernCall(2), headers: modernHeaders("get_insights") },
    { body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }), headers: legacyHeaders(sessions[side]) },
    { body: legacyCall("four"), headers: legacyHeaders("x".repeat(40)) },
    { body: modernCall(5), headers: modernHeaders("get_insights") },
    { body: legacyCall(6), headers: legacyHeaders(sessions[side]) },
  ];
  // Each call seen once, so that the lane has its answer.
  for (const r of requestsOf("lane")) await post(lane, r.body, r.headers);
  const want = await pipelined(general, requestsOf("general"));
  const got = await pipelined(lane, requestsOf("lane"));
  assert.equal(got, want);
  assert.equal((got.match(/HTTP\/1\.1 \d{3} /g) ?? []).length, 6);
  assert.equal(lane.lastLane, true, "the last call answered by the lane");
});

test("property: lane and general path answer alike over generated ids, arguments and spellings", async () => {
  const sessions = { lane: await session(lane), general: await session(general) };
  const tricky = fc.constantFrom(
    '"',
    "\\",
    '","id":',
    '"id":7}',
    "}",
    "{",
    " ",
    "\n",
    "\u2028",
    "\ud800",
    "\udc00",
    "é",
    "\u{1f600}",
    "0",
  );
  const text = (max: number) =>
    fc.string({
      unit: fc.oneof(tricky, fc.string({ unit: "binary", minLength: 1, maxLength: 1 })),
      minLength: 1,
      maxLength: max,
    });
  const id = fc.oneof(
    fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }),
    fc.constantFrom(0, -0, 2 ** 53 - 1, -(2 ** 53 - 1), 10 ** 15, 2 ** 53 + 2, ""),
    text(12),
  );
  /** The id as the body spells it: as JSON.stringify does, or another way JSON.parse reads the same. */
  const spelling = fc.constantFrom("plain", "other");
  const spell = (v: unknown, how: string) => {
    if (how === "plain") return JSON.stringify(v);
    if (typeof v === "number") return `${v}.0e0`;
    return `"${[...String(v)].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"`;
  };
  const ws = fc.constantFrom("", "", " ", "\n", "\t \r\n");
  const order = fc.constantFrom("first", "last", "middle");
  const request = fc.record({ id, how: spelling, order, ws });
  /** A member added to params as raw text: numbers JSON.stringify writes another way, a duplicate, a task. */
  const extra = fc.constantFrom(
    "",
    ',"x":1e999',
    ',"x":-0',
    ',"x":1.0',
    ',"x":100000000000000000000001',
    ',"x":"\\u0000"',
    ',"name":"get_business"',
    ',"_meta":{}',
    ',"task":{"ttl":-0}',
    ',"arguments":{}',
  );
  const args = fc.record(
    { query: text(40), limit: fc.integer({ min: 1, max: 3 }), rating: fc.integer({ min: 1, max: 5 }) },
    { requiredKeys: ["query"] },
  );
  let answered = 0;
  let repeats = 0;
  await fc.assert(
    fc.asyncProperty(
      args,
      fc.boolean(),
      extra,
      fc.array(request, { minLength: 2, maxLength: 3 }),
      async (a, modern, more, reqs) => {
        const object = JSON.stringify({
          name: "search_reviews",
          arguments: a,
          ...(modern ? { _meta: MODERN_META } : {}),
        });
        const params = `${object.slice(0, -1)}${more}}`;
        for (const [i, r] of reqs.entries()) {
          const w = r.ws;
          const idText = spell(r.id, r.how);
          const body =
            r.order === "first"
              ? `{"jsonrpc":"2.0","id":${w}${idText}${w},"method":"tools/call","params":${params}}${w}`
              : r.order === "last"
                ? `{"method":"tools/call",${w}"params":${params},"jsonrpc":"2.0","id":${idText}${w}}`
                : `${w}{"jsonrpc":"2.0","method":"tools/call","id":${idText},"params":${params}}`;
          const headersOf = (side: "lane" | "general") =>
            modern
              ? modernHeaders(more.includes("get_business") ? "get_business" : "search_reviews")
              : legacyHeaders(sessions[side]);
          const result = await both(body, headersOf);
          sameAnswer(body, result);
          if (i > 0) {
            repeats++;
            if (result.answered) answered++;
          }
        }
      },
    ),
    { seed: 20261122, numRuns: 80, endOnFailure: true },
  );
  // Every repeat of a call whose first answer was kept is answered by the lane: most of them.
  assert.ok(answered > repeats / 2, `${answered} of ${repeats} repeats answered by the lane`);
});
