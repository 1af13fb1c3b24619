// Inputs a black-box fuzz of the running sidecar found mishandled (2026-11-23): each gets a clear, immediate
// 4xx of the documented shape.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { HUB_FORM_MAX_BYTES, MCP_MAX_BODY_BYTES } from "../../src/domain/limits.ts";
import { buildSample } from "../helpers/build.ts";
import { JSON_HEADERS, legacySession, rpc } from "../helpers/mcp-http.ts";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { rawExchange } from "../helpers/raw-http.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

let sidecar: RunningSidecar;
let api: OpenApiValidator;
/** One 2025-11-25 session for every MCP test here (a client address may hold only a few). */
let headers: Record<string, string>;

before(async () => {
  sidecar = await startTestSidecar(await buildSample());
  api = new OpenApiValidator(await (await fetch(`${sidecar.url}/.well-known/openapi.json`)).json());
  headers = await legacySession(sidecar.url);
});
after(() => sidecar.close());

/** Writes `head` and no more: the body a request declares is never sent. */
const headOnly = (head: string) => rawExchange(Number(new URL(sidecar.url).port), head, { read: true, quietMs: 3000 });

const post = (path: string, type: string, length: number, extra = "") =>
  `POST ${path} HTTP/1.1\r\nHost: ${new URL(sidecar.url).host}\r\nContent-Type: ${type}\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n${extra}\r\n{}`;

describe("MCP, 2025 revisions: a request's _meta of the wrong shape", () => {
  const bad: [string, unknown][] = [
    ["progressToken an object", { progressToken: {} }],
    ["progressToken a fraction", { progressToken: 1.5 }],
    ["progressToken null", { progressToken: null }],
    ["_meta a string", "x"],
    ["_meta an array", []],
    ["_meta null", null],
  ];
  for (const [name, meta] of bad) {
    for (const method of ["tools/list", "ping", "no/such/method", "tools/call"]) {
      test(`${method}, ${name}: -32602 naming params._meta, at once`, async () => {
        const params = method === "tools/call" ? { name: "get_business", arguments: {}, _meta: meta } : { _meta: meta };
        const reply = await rpc(sidecar.url, { jsonrpc: "2.0", id: 7, method, params }, headers);
        assert.equal(reply.json.id, 7);
        assert.equal(reply.json.error?.code, -32602, reply.text);
        assert.match(reply.json.error?.message ?? "", /params\._meta/);
      });
    }
  }

  test("initialize with such a _meta is refused and opens no session", async () => {
    const reply = await rpc(sidecar.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
        _meta: { progressToken: {} },
      },
    });
    assert.equal(reply.json.error?.code, -32602, reply.text);
    assert.equal(reply.res.headers.get("mcp-session-id"), null);
  });

  test("a 2025-03-26 batch with one such request is refused whole, at once", async () => {
    const batchHeaders = await legacySession(sidecar.url, "2025-03-26");
    const reply = await rpc(
      sidecar.url,
      [
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", id: 2, method: "ping", params: { _meta: { progressToken: [] } } },
      ],
      batchHeaders,
    );
    assert.equal(reply.json.error?.code, -32602, reply.text);
    assert.equal(reply.json.id, 2);
  });

  test("a well-formed progressToken is still served", async () => {
    for (const progressToken of ["t", 5]) {
      const reply = await rpc(
        sidecar.url,
        { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: { progressToken } } },
        headers,
      );
      assert.ok(Array.isArray(reply.json.result?.tools), reply.text);
    }
  });
});

test("MCP initialize with capabilities of the wrong shape: -32602, one line per problem", async () => {
  const reply = await rpc(sidecar.url, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: { sampling: 5 }, clientInfo: { name: "raw", version: "1" } },
  });
  assert.equal(reply.json.error?.code, -32602, reply.text);
  assert.match(reply.json.error?.message ?? "", /params\.capabilities\.sampling/);
  assert.doesNotMatch(reply.json.error?.message ?? "", /\n/);
});

test("MCP resources/read of a review URI with a malformed escape is a client error, not -32603", async () => {
  const headers = await legacySession(sidecar.url);
  for (const uri of ["reviews://review/%", "reviews://review/%E0%A4%A"]) {
    const reply = await rpc(sidecar.url, { jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri } }, headers);
    const known = await rpc(
      sidecar.url,
      { jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri: "reviews://review/no-such-id" } },
      headers,
    );
    assert.ok(reply.json.error, reply.text);
    assert.notEqual(reply.json.error?.code, -32603, reply.text);
    assert.equal(reply.json.error?.code, known.json.error?.code, "answered as an unknown resource is");
  }
});

describe("a body declared over the limit is refused from the headers, before it is sent", () => {
  test(`POST /mcp declaring ${MCP_MAX_BODY_BYTES + 1} bytes and sending none: 413 JSON-RPC error at once`, async () => {
    const { received } = await headOnly(post("/mcp", "application/json", MCP_MAX_BODY_BYTES + 1));
    assert.match(received, /^HTTP\/1\.1 413 /);
    assert.match(received, /"code":-32600/);
  });

  test(`the hub declaring ${HUB_FORM_MAX_BYTES + 1} bytes and sending none: 413 in plain text at once`, async () => {
    const { received } = await headOnly(
      post("/api/websub/hub", "application/x-www-form-urlencoded", HUB_FORM_MAX_BYTES + 1),
    );
    assert.match(received, /^HTTP\/1\.1 413 /);
    assert.match(received, /text\/plain/);
  });

  test("a client that sends the whole oversized body gets the 413 (its body is read off, the connection kept)", async () => {
    for (const [path, type, size] of [
      ["/mcp", "application/json", MCP_MAX_BODY_BYTES * 4],
      ["/api/websub/hub", "application/x-www-form-urlencoded", HUB_FORM_MAX_BYTES * 4],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${sidecar.url}${path}`, {
          method: "POST",
          headers: { ...JSON_HEADERS, "Content-Type": type },
          body: type === "application/json" ? JSON.stringify({ pad: "x".repeat(size) }) : `a=${"x".repeat(size)}`,
        });
        await res.text();
        assert.equal(res.status, 413, path);
      }
    }
  });

  for (const [path, type, limit] of [
    ["/mcp", "application/json", MCP_MAX_BODY_BYTES],
    ["/api/websub/hub", "application/x-www-form-urlencoded", HUB_FORM_MAX_BYTES],
  ] as const) {
    test(`Expect: 100-continue over ${path}'s limit gets 413 and the connection closed, not 100 Continue`, async () => {
      const { received, closedByServer } = await headOnly(
        post(path, type, limit + 1, "Expect: 100-continue\r\n").replace(/\{\}$/, ""),
      );
      assert.match(received, /^HTTP\/1\.1 413 /);
      assert.doesNotMatch(received, /100 Continue/);
      assert.ok(closedByServer, "closed: the client waiting for 100 Continue sends no body to read off");
    });
  }

  test("Expect: 100-continue within the limit gets 100 Continue", async () => {
    const { received } = await headOnly(
      post("/mcp", "application/json", 2, "Expect: 100-continue\r\n").replace(/\{\}$/, ""),
    );
    assert.match(received, /^HTTP\/1\.1 100 Continue/);
  });
});

describe("request targets", () => {
  for (const target of ["ftp://x/reviews.json", "http://[::1", "http://a%zz/x"]) {
    test(`${target}: 400 JSON with CORS, not a 405 or Express's HTML page`, async () => {
      const { received } = await headOnly(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      assert.match(received, /^HTTP\/1\.1 400 /);
      assert.match(received, /application\/json/);
      assert.match(received, /access-control-allow-origin: \*/i);
      assert.match(received, /"error":"bad_request"/);
    });
  }
});

describe("If-Modified-Since that is not an HTTP-date is ignored (RFC 9110 13.1.3)", () => {
  for (const path of ["/reviews.json", "/api/feed.json", "/api/reviews/since/2026-01-01"]) {
    test(`${path}: garbage gets 200; each of the three HTTP-date forms of a later date gets 304`, async () => {
      const lm = (await fetch(`${sidecar.url}${path}`)).headers.get("last-modified") as string;
      const later = new Date(Date.parse(lm) + 86_400_000);
      for (const ims of ["garbage 2099", "x 2030", "2030", later.toUTCString().replace("GMT", "UTC")]) {
        const res = await fetch(`${sidecar.url}${path}`, { headers: { "If-Modified-Since": ims } });
        await res.arrayBuffer();
        assert.equal(res.status, 200, ims);
      }
      const [dow, dd, mon, yyyy, time] = later.toUTCString().replace(",", "").split(" ");
      const long = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][later.getUTCDay()];
      const forms = [
        later.toUTCString(),
        `${long}, ${dd}-${mon}-${yyyy.slice(2)} ${time} GMT`,
        `${dow} ${mon} ${String(Number(dd)).padStart(2, " ")} ${time} ${yyyy}`,
      ];
      for (const ims of forms) {
        const res = await fetch(`${sidecar.url}${path}`, { headers: { "If-Modified-Since": ims } });
        assert.equal(res.status, 304, ims);
      }
    });
  }
});

describe("parameters", () => {
  test("since/{date} with a malformed escape: 400 with issues, as the OpenAPI says", async () => {
    for (const date of ["%", "%ZZ", "%C0%AE"]) {
      const url = `${sidecar.url}/api/reviews/since/${date}`;
      const res = await fetch(url);
      const body = await res.text();
      assert.equal(res.status, 400);
      assert.ok(Array.isArray(JSON.parse(body).issues), body);
      await api.check("get", url, res, body);
    }
  });

  test("since/{date} with a query parameter named date: 400 unknown parameter (the path's date is the date)", async () => {
    for (const q of ["?date=2020-01-01", "?date"]) {
      const res = await fetch(`${sidecar.url}/api/reviews/since/2026-01-01${q}`);
      const body = (await res.json()) as { issues: { path: string[]; code: string }[] };
      assert.equal(res.status, 400);
      assert.deepEqual(body.issues[0].path, ["date"]);
      assert.equal(body.issues[0].code, "unknown_parameter");
    }
  });

  test("the search page refuses __proto__ as it refuses any unknown parameter", async () => {
    for (const q of ["__proto__=1", "foo=1"]) {
      const res = await fetch(`${sidecar.url}/search?${q}`);
      await res.text();
      assert.equal(res.status, 400, q);
    }
  });
});
