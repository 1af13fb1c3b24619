// /mcp over raw HTTP: JSON-RPC deviations, both protocol eras side by side, batches per revision, session
// per client address admission (the least valuable session ends), early expiry of sessions that never finished initializing, CORS.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { buildSample } from "../helpers/build.ts";
import { JSON_HEADERS, legacySession, MODERN_META, modern, rpc } from "../helpers/mcp-http.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

let dist: string;
let sidecar: RunningSidecar;
before(async () => {
  dist = await buildSample();
  sidecar = await startTestSidecar(dist);
});
after(() => sidecar.close());

describe("JSON-RPC", () => {
  test("valid JSON that is not a request is -32600 (not -32700), echoing the id", async () => {
    const session = await legacySession(sidecar.url);
    for (const [body, id] of [
      ["42", null],
      ['"ping"', null],
      ["null", null],
      [{ jsonrpc: "2.0", id: 7 }, 7],
      [{ jsonrpc: "1.0", id: "s", method: "ping" }, "s"],
      [{ jsonrpc: "2.0", id: 9, method: "ping", params: [] }, 9],
      // A member JSON-RPC does not define: the SDK would never answer it (the client waited 10 s for -32603).
      [{ x: 1, jsonrpc: "2.0", id: 12, method: "ping" }, 12],
    ] as const) {
      const { res, json } = await rpc(sidecar.url, body, session);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(json.error?.code, -32600, JSON.stringify(body));
      assert.equal(json.id, id);
    }
  });

  test("an empty batch is a -32600 error, not 202", async () => {
    const { res, json } = await rpc(sidecar.url, [], await legacySession(sidecar.url, "2025-03-26"));
    assert.equal(res.status, 400);
    assert.equal(json.error?.code, -32600);
  });

  test("batches: answered on 2025-03-26, refused on the revisions that removed them", async () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ];
    const old = await rpc(sidecar.url, batch, await legacySession(sidecar.url, "2025-03-26"));
    assert.equal(old.res.status, 200);
    const answers = JSON.parse(old.text) as { id: number; result?: unknown }[];
    assert.deepEqual(answers.map((a) => a.id).sort(), [1, 2]);
    assert.ok(answers.every((a) => a.result));
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const { res, json } = await rpc(sidecar.url, batch, await legacySession(sidecar.url, version));
      assert.equal(res.status, 400, version);
      assert.equal(json.error?.code, -32600);
      assert.match(json.error?.message ?? "", new RegExp(`${version} has no batches`));
    }
  });

  // Each revision's own code: the 2025 revisions name -32002, 2026-07-28 names -32602; both carry data.uri.
  test("an unknown resource is -32002 on 2025 revisions and -32602 on 2026-07-28, with data.uri", async () => {
    const uri = "reviews://review/no-such-review";
    const read = { jsonrpc: "2.0", id: 9, method: "resources/read", params: { uri } };
    for (const version of ["2025-03-26", "2025-06-18", "2025-11-25"]) {
      const { json } = await rpc(sidecar.url, read, await legacySession(sidecar.url, version));
      assert.equal(json.error?.code, -32002, version);
      assert.equal((json.error as { data?: { uri?: string } } | undefined)?.data?.uri, uri, version);
    }
    const { json } = await modern(sidecar.url, 9, "resources/read", { uri });
    assert.equal(json.error?.code, -32602);
    assert.equal((json.error as { data?: { uri?: string } } | undefined)?.data?.uri, uri);
  });

  test("invalid params are -32602 with a readable message in both eras, never -32603 or a zod dump", async () => {
    const session = await legacySession(sidecar.url);
    const replies = [
      await rpc(sidecar.url, { jsonrpc: "2.0", id: 11, method: "tools/call", params: { arguments: 1 } }, session),
      await rpc(sidecar.url, { jsonrpc: "2.0", id: 12, method: "resources/read", params: { uri: 5 } }, session),
      await modern(sidecar.url, 13, "tools/call", { arguments: 1 }),
      await modern(sidecar.url, 14, "resources/read", { uri: 5 }),
    ];
    for (const [i, { json }] of replies.entries()) {
      assert.equal(json.error?.code, -32602, JSON.stringify(json));
      assert.equal(json.id, 11 + i);
      assert.match(json.error?.message ?? "", /^Invalid params for [a-z/]+: params\./);
      assert.doesNotMatch(json.error?.message ?? "", /\n|"code":/);
    }
    const prompt = await rpc(
      sidecar.url,
      { jsonrpc: "2.0", id: 15, method: "prompts/get", params: { name: "draft_owner_response" } },
      session,
    );
    assert.equal(prompt.json.error?.code, -32602);
    assert.match(prompt.json.error?.message ?? "", /review_id/);
  });

  test("session errors echo the request id", async () => {
    const missing = await rpc(sidecar.url, { jsonrpc: "2.0", id: "a1", method: "tools/list" });
    assert.equal(missing.res.status, 400);
    assert.equal(missing.json.id, "a1");
    const unknown = await rpc(sidecar.url, { jsonrpc: "2.0", id: 77, method: "tools/list" }, { "Mcp-Session-Id": "x" });
    assert.equal(unknown.res.status, 404);
    assert.equal(unknown.json.id, 77);
  });
});

describe("2026-07-28 beside the 2025 revisions", () => {
  test("server/discover lists the modern revision and the capabilities; results carry resultType; no session", async () => {
    const { res, json } = await modern(sidecar.url, 1, "server/discover");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("mcp-session-id"), null);
    const result = json.result as { supportedVersions: string[]; capabilities: Record<string, unknown> };
    assert.deepEqual(result.supportedVersions, ["2026-07-28"]);
    assert.deepEqual(Object.keys(result.capabilities).sort(), ["prompts", "resources", "tools"]);
    assert.equal(json.result?.resultType, "complete");
    const call = await modern(sidecar.url, 2, "tools/call", { name: "search_reviews", arguments: { limit: 2 } });
    assert.equal(call.json.result?.resultType, "complete");
    assert.equal((call.json.result?.structuredContent as { count: number } | undefined)?.count, 2);
  });

  test("a claim-less server/discover names the revision it serves instead of asking for a session", async () => {
    const { json } = await rpc(sidecar.url, { jsonrpc: "2.0", id: 3, method: "server/discover" });
    assert.equal(json.error?.code, -32022);
    assert.equal(json.id, 3);
    assert.match(JSON.stringify(json.error), /2026-07-28/);
  });

  test("initialize still negotiates each 2025 revision and hands out a session id", async () => {
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
      const init = await rpc(sidecar.url, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      });
      assert.equal(init.json.result?.protocolVersion, version);
      assert.ok(init.res.headers.get("mcp-session-id"));
    }
  });
});

test("CORS: a preflight from any origin allows the MCP headers; answers expose Mcp-Session-Id", async () => {
  const pre = await fetch(`${sidecar.url}/mcp`, {
    method: "OPTIONS",
    headers: {
      Origin: "https://agent.example",
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers":
        "content-type, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, mcp-param-limit",
    },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  const allowed = (pre.headers.get("access-control-allow-headers") ?? "").toLowerCase();
  for (const h of [
    "content-type",
    "mcp-session-id",
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
    "mcp-param-limit",
  ])
    assert.ok(allowed.includes(h), h);
});

test("a client at its session cap is admitted (its least valuable session ends); 100 runs without DELETE all pass", async () => {
  const small = await startTestSidecar(dist, {
    MCP_MAX_SESSIONS_PER_CLIENT: "2",
    MCP_UNINITIALIZED_SESSION_SECONDS: "1",
  });
  try {
    const a = await legacySession(small.url);
    const quiet = await legacySession(small.url, "2025-11-25", { initialized: false });
    const list = { jsonrpc: "2.0", id: 6, method: "tools/list" };
    const third = await legacySession(small.url);
    assert.equal((await rpc(small.url, list, third)).res.status, 200, "admitted at the cap");
    assert.equal((await rpc(small.url, list, quiet)).res.status, 404, "the never-initialized one ended for it");
    assert.equal((await rpc(small.url, list, a)).res.status, 200, "initialized: still alive");
    // Clients that never say DELETE (the Inspector CLI, most SDKs), run after run from one address.
    for (let run = 0; run < 100; run++) {
      const session = await legacySession(small.url);
      const r = await rpc(small.url, list, session);
      assert.equal(r.res.status, 200, `run ${run}`);
    }
    const del = await fetch(`${small.url}/mcp`, { method: "DELETE", headers: third });
    assert.equal(del.status, 404, "third was ended to make room long ago");
  } finally {
    await small.close();
  }
});

test("discovery: the MCP Catalog at its well-known URI leads to the Server Card, which leads to /mcp", async () => {
  const catalogRes = await fetch(`${sidecar.url}/.well-known/mcp/catalog.json`);
  assert.equal(catalogRes.status, 200);
  assert.equal(catalogRes.headers.get("access-control-allow-origin"), "*");
  const catalog = (await catalogRes.json()) as { entries: { type: string; url: string }[] };
  assert.equal(catalog.entries[0].type, "application/mcp-server-card+json");
  const cardPath = new URL(catalog.entries[0].url).pathname;
  assert.equal(cardPath, "/mcp/server-card");
  const cardRes = await fetch(`${sidecar.url}${cardPath}`);
  assert.match(cardRes.headers.get("content-type") ?? "", /^application\/mcp-server-card\+json/);
  const card = (await cardRes.json()) as {
    name: string;
    remotes: { type: string; url: string; supportedProtocolVersions: string[] }[];
  };
  assert.match(card.name, /^[a-z0-9.-]+\/reviews$/);
  assert.equal(card.remotes[0].type, "streamable-http");
  assert.equal(new URL(card.remotes[0].url).pathname, "/mcp");
  assert.deepEqual(card.remotes[0].supportedProtocolVersions, ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]);
  const openapi = (await (await fetch(`${sidecar.url}/.well-known/openapi.json`)).json()) as {
    paths: Record<string, unknown>;
  };
  for (const path of ["/mcp", "/mcp/server-card", "/.well-known/mcp/catalog.json"])
    assert.ok(openapi.paths[path], path);
});

describe("MCP over HTTP through the SDK", () => {
  const sentinel = (s: string) => `=?base64?${Buffer.from(s).toString("base64")}?=`;

  test("2026-07-28 tools/call: a plain Mcp-Name and its Base64 form get the same answer", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["search_reviews", { rating: 5, limit: 3 }],
      ["search_reviews", { query: "great" }],
      ["get_business", {}],
      ["get_insights", { section: "aspects" }],
      ["search_reviews", { limit: 0 }],
      ["no_such_tool", {}],
    ];
    for (const [name, args] of calls) {
      const body = {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name, arguments: args, _meta: MODERN_META },
      };
      const headers = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call" };
      const lane = await rpc(sidecar.url, body, { ...headers, "Mcp-Name": name });
      const sdk = await rpc(sidecar.url, body, { ...headers, "Mcp-Name": sentinel(name) });
      assert.equal(lane.res.status, sdk.res.status, name);
      assert.equal(lane.res.headers.get("content-type"), sdk.res.headers.get("content-type"), name);
      assert.deepEqual(lane.json, sdk.json, `${name} ${JSON.stringify(args)}`);
    }
  });

  test("request bodies: read as body-parser reads them (BOM, empty), gzip and chunked bodies still served", async () => {
    const session = await legacySession(sidecar.url);
    const post = (body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(`${sidecar.url}/mcp`, {
        method: "POST",
        headers: { ...JSON_HEADERS, ...session, ...headers },
        body,
        duplex: "half",
      } as RequestInit).then(async (r) => ({ status: r.status, json: await r.json() }));
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    assert.deepEqual(await post(`\uFEFF${ping}`), { status: 200, json: { jsonrpc: "2.0", id: 1, result: {} } });
    const empty = await post("");
    assert.deepEqual([empty.status, empty.json.error.code], [400, -32600]);
    const gzipped = await post(gzipSync(ping), { "Content-Encoding": "gzip" });
    assert.deepEqual(gzipped, { status: 200, json: { jsonrpc: "2.0", id: 1, result: {} } });
    const chunked = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(ping.slice(0, 10)));
        c.enqueue(new TextEncoder().encode(ping.slice(10)));
        c.close();
      },
    });
    assert.deepEqual(await post(chunked), { status: 200, json: { jsonrpc: "2.0", id: 1, result: {} } });
    const latin1 = await post(ping, { "Content-Type": "application/json; charset=iso-8859-1" });
    assert.equal(latin1.status, 415);
    const broken = await post('{"jsonrpc":"2.0",', {});
    assert.deepEqual([broken.status, broken.json.error.code], [400, -32700]);
  });

  test("concurrent calls that all use id 1 each get their own answer, equal to REST, in both eras", async () => {
    const session = await legacySession(sidecar.url);
    const cases = [1, 2, 3, 4, 5].flatMap((rating) => [
      { rating, limit: 2 },
      { min_rating: rating, limit: 4 },
    ]);
    await Promise.all(
      cases.flatMap((args) => {
        const rest = fetch(
          `${sidecar.url}/api/reviews/search?${new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]))}`,
        ).then((r) => r.json());
        const call = {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "search_reviews", arguments: args },
        };
        return [
          Promise.all([rpc(sidecar.url, call, session), rest]).then(([mcp, expected]) => {
            assert.equal(mcp.json.id, 1);
            assert.deepEqual(mcp.json.result?.structuredContent, expected, `legacy ${JSON.stringify(args)}`);
          }),
          Promise.all([modern(sidecar.url, 1, "tools/call", { name: "search_reviews", arguments: args }), rest]).then(
            ([mcp, expected]) => {
              assert.equal(mcp.json.id, 1);
              assert.deepEqual(mcp.json.result?.structuredContent, expected, `modern ${JSON.stringify(args)}`);
            },
          ),
        ];
      }),
    );
  });
});
