// The MCP endpoint with the SDK's own v2 client over streamable HTTP, in the stateless 2026-07-28 mode and
// in the 2025 session mode, plus raw HTTP for the legacy protocol's edge cases.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { MCP_ANSWER_MAX_BYTES } from "../../src/domain/limits.ts";
import { buildSample } from "../helpers/build.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

let sidecar: RunningSidecar;
const clients: Record<Mode, Client> = {} as Record<Mode, Client>;
type Mode = "legacy" | "modern";
const MODES: Mode[] = ["modern", "legacy"];

async function connect(url: string, mode: Mode): Promise<Client> {
  const client = new Client(
    { name: `test-client-${mode}`, version: "1.0.0" },
    { versionNegotiation: { mode: mode === "modern" ? { pin: "2026-07-28" } : "legacy" } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return client;
}
const ajv = new Ajv2020.default({ strict: false });
addFormats.default(ajv);

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text: string }[];
};
const callWith = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

async function rpc(body: unknown, headers: Record<string, string> = {}, method = "POST") {
  const res = await fetch(`${sidecar.url}/mcp`, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: method === "POST" ? (typeof body === "string" ? body : JSON.stringify(body)) : undefined,
  });
  const text = await res.text();
  return { res, text, json: text ? JSON.parse(text) : undefined };
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

async function rawSession(): Promise<string> {
  const { res } = await rpc(INIT);
  const id = res.headers.get("mcp-session-id") as string;
  await rpc(
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { "Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-06-18" },
  );
  return id;
}

before(async () => {
  sidecar = await startTestSidecar(await buildSample());
  for (const mode of MODES) clients[mode] = await connect(sidecar.url, mode);
});
after(async () => {
  for (const mode of MODES) await clients[mode].close();
  await sidecar.close();
});

for (const mode of MODES) {
  const client = { get: () => clients[mode] };
  const call = (name: string, args: Record<string, unknown> = {}) => callWith(client.get(), name, args);

  test(`${mode}: the client negotiated the expected revision`, () => {
    const version = clients[mode].getNegotiatedProtocolVersion?.() ?? "";
    assert.equal(version, mode === "modern" ? "2026-07-28" : "2025-11-25");
  });

  describe(`${mode}: tools through the SDK client`, () => {
    test("tools/list: five read-only tools with titles, input and output schemas", async () => {
      const { tools } = await client.get().listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [
        "get_business",
        "get_insights",
        "get_review",
        "get_reviews_since",
        "search_reviews",
      ]);
      for (const t of tools) {
        assert.ok(t.title && t.description && t.description.length > 40, t.name);
        assert.equal(t.inputSchema.type, "object");
        assert.equal(t.outputSchema?.type, "object");
        assert.deepEqual(
          t.annotations && {
            r: t.annotations.readOnlyHint,
            i: t.annotations.idempotentHint,
            o: t.annotations.openWorldHint,
          },
          { r: true, i: true, o: false },
        );
      }
      // Strict clients (Inspector --strict) warn on type arrays such as ["string", "null"].
      assert.doesNotMatch(JSON.stringify(tools), /"type":\[/);
      const search = tools.find((t) => t.name === "search_reviews");
      const props = search?.inputSchema.properties as Record<string, { maximum?: number; default?: number }>;
      assert.equal(props.limit.maximum, 100);
      assert.equal(props.limit.default, 20);
      assert.ok(props.mentions_technician && props.cursor && props.query);
    });

    test("every tool's structuredContent validates against its outputSchema and equals the text block", async () => {
      const { tools } = await client.get().listTools();
      const business = (await call("get_business")).structuredContent as {
        business: { technicians: { id: string }[] };
      };
      const first = (await call("search_reviews", { limit: 1 })).structuredContent as { reviews: { id: string }[] };
      const args: Record<string, Record<string, unknown>> = {
        get_business: {},
        search_reviews: { rating: 5, limit: 3 },
        get_review: { id: first.reviews[0].id },
        get_reviews_since: { date: "2026-01-01" },
        get_insights: {},
      };
      for (const t of tools) {
        const result = await call(t.name, args[t.name]);
        assert.ok(!result.isError, `${t.name}: ${result.content[0]?.text}`);
        const validate = ajv.compile(t.outputSchema as object);
        assert.ok(validate(result.structuredContent), `${t.name}: ${JSON.stringify(validate.errors)}`);
        assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
      }
      assert.ok(business.business.technicians.length >= 5);
      const section = await call("get_insights", { section: "aspects" });
      assert.ok(Array.isArray(section.structuredContent?.aspects));
      assert.equal(section.structuredContent?.topics, undefined);
    });

    test("search_reviews equals GET /api/reviews/search over random parameters, cursor included", async () => {
      const params = fc.record(
        {
          rating: fc.integer({ min: 0, max: 6 }),
          min_rating: fc.constantFrom(1, 3.5, 5),
          since: fc.constantFrom("2023-01-01", "2025-06-30", "2024-02-30"),
          until: fc.constantFrom("2024-12-31", "2026-12-31"),
          query: fc.constantFrom(
            "on time",
            "PRICE",
            "é",
            "zzz",
            "water heater",
            "heater water",
            "Furnace late",
            "the of",
          ),
          match: fc.constantFrom("substring", "words", "phrase"),
          mentions_technician: fc.constantFrom("Tess", "marcus-delgado", "nobody"),
          mentions_service: fc.constantFrom("ac-repair", "DRAIN-CLEANING"),
          limit: fc.integer({ min: 0, max: 30 }),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(params, async (p) => {
          const qs = new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)]));
          const rest = await (await fetch(`${sidecar.url}/api/reviews/search?${qs}`)).json();
          const mcp = await call("search_reviews", p);
          if (rest.issues) {
            assert.equal(mcp.isError, true);
            assert.deepEqual(JSON.parse(mcp.content[0].text), rest);
            return;
          }
          if (p.mentions_technician === "nobody") {
            // REST: the empty result; MCP: an error naming the nearest technicians.
            assert.equal(rest.total, 0);
            assert.equal(mcp.isError, true);
            assert.match(mcp.content[0].text, /no technician is named \\"nobody\\"/);
            return;
          }
          assert.deepEqual(mcp.structuredContent, rest);
          if (rest.next_cursor) {
            const restNext = await (
              await fetch(`${sidecar.url}/api/reviews/search?${qs}&cursor=${rest.next_cursor}`)
            ).json();
            const mcpNext = await call("search_reviews", { ...p, cursor: rest.next_cursor });
            assert.deepEqual(mcpNext.structuredContent, restNext);
          }
        }),
        { numRuns: 60 },
      );
    });

    test("match=words: both word orders give the same reviews on REST and MCP; no words is a 400 and an isError", async () => {
      const rest = async (q: string) =>
        (await fetch(`${sidecar.url}/api/reviews/search?${new URLSearchParams(q)}`)).json();
      const water = await rest("query=water heater&match=words&limit=100");
      const heater = await rest("query=heater WATERS&match=words&limit=100");
      assert.ok(water.total > 0);
      assert.deepEqual(heater.reviews, water.reviews);
      // An MCP page stops short of its limit when its reviews are long: it is the start of the REST page.
      const mcp = (await call("search_reviews", { query: "heater water", match: "words", limit: 100 }))
        .structuredContent as { total: number; reviews: unknown[] };
      assert.equal(mcp.total, water.total);
      assert.ok(mcp.reviews.length > 0);
      assert.deepEqual(mcp.reviews, water.reviews.slice(0, mcp.reviews.length));
      // The literal text finds only the reviews that say it in this order.
      const substring = await rest("query=heater water&limit=100");
      assert.ok(substring.total < water.total);
      const wordless = await fetch(`${sidecar.url}/api/reviews/search?query=the+of&match=words`);
      assert.equal(wordless.status, 400);
      const issues = await wordless.json();
      assert.equal(issues.issues[0].code, "no_words");
      const refused = await call("search_reviews", { query: "the of", match: "words" });
      assert.equal(refused.isError, true);
      assert.deepEqual(JSON.parse(refused.content[0].text), issues);
    });

    test("technicians, services and areas by id, name or alias in any case; a near miss names the entry", async () => {
      const { business } = (await call("get_business")).structuredContent as {
        business: Record<
          "technicians" | "services" | "service_areas",
          { id: string; name: string; aliases?: string[] }[]
        >;
      };
      const params = {
        technicians: "mentions_technician",
        services: "mentions_service",
        service_areas: "mentions_area",
      };
      for (const [kind, param] of Object.entries(params) as [keyof typeof params, string][]) {
        for (const entry of business[kind]) {
          const byId = await call("search_reviews", { [param]: entry.id, limit: 20 });
          assert.notEqual(byId.isError, true, `${param}=${entry.id}`);
          for (const name of [entry.name, entry.name.toUpperCase(), ...(entry.aliases ?? [])]) {
            // The same reviews (a cursor stays bound to the filters as they were written).
            const same = (r: unknown) => {
              const { next_cursor: _c, ...rest } = r as { next_cursor: unknown };
              return rest;
            };
            const other = await call("search_reviews", { [param]: name, limit: 20 });
            assert.deepEqual(same(other.structuredContent), same(byId.structuredContent), `${param}=${name}`);
            const rest = await (
              await fetch(`${sidecar.url}/api/reviews/search?${param}=${encodeURIComponent(name)}&limit=20`)
            ).json();
            assert.deepEqual(same(rest), same(byId.structuredContent), `REST ${param}=${name}`);
          }
          // One letter off: not found, and the error names the entry.
          const typo = `${entry.name.slice(0, -1)}x`;
          const miss = await call("search_reviews", { [param]: typo });
          assert.equal(miss.isError, true, typo);
          assert.ok(miss.content[0].text.includes(entry.id), `${typo}: ${miss.content[0].text}`);
        }
      }
    });

    test("view=compact gives the same reviews in a few fields; get_insights narrows to one technician by name", async () => {
      const full = (await call("search_reviews", { rating: 5, limit: 10 })).structuredContent as {
        total: number;
        reviews: { id: string; rating: number; text: string }[];
      };
      const compact = (await call("search_reviews", { rating: 5, limit: 10, view: "compact" })).structuredContent as {
        total: number;
        reviews: { id: string; rating: number; excerpt: string; text?: string }[];
      };
      assert.equal(compact.total, full.total);
      assert.deepEqual(
        compact.reviews.map((r) => r.id),
        full.reviews.map((r) => r.id),
      );
      for (const [i, r] of compact.reviews.entries()) {
        assert.equal(r.text, undefined);
        assert.ok(r.excerpt.length <= 160);
        assert.ok(full.reviews[i].text.startsWith(r.excerpt.replace(/…$/, "")), r.id);
      }
      const one = (await call("get_insights", { technician: "Tess" })).structuredContent as {
        entities: Record<string, { id: string }[]>;
      };
      assert.deepEqual(
        one.entities.technicians.map((e) => e.id),
        ["tess-nguyen"],
      );
      assert.deepEqual([one.entities.services, one.entities.service_areas], [[], []]);
      const miss = await call("get_insights", { technician: "Teressa" });
      assert.equal(miss.isError, true);
      assert.match(miss.content[0].text, /tess-nguyen/);
    });

    test("invalid arguments give isError with the REST issues", async () => {
      const result = await call("search_reviews", { rating: 9, colour: "blue" });
      assert.equal(result.isError, true);
      const rest = await (await fetch(`${sidecar.url}/api/reviews/search?rating=9&colour=blue`)).json();
      assert.deepEqual(JSON.parse(result.content[0].text), rest);
      const missing = await call("get_review", { id: "no-such-review" });
      assert.equal(missing.isError, true);
      assert.match(missing.content[0].text, /not_found/);
      const since = await call("get_reviews_since", { date: "2025-02-30" });
      assert.equal(since.isError, true);
    });

    test("an unknown tool is JSON-RPC error -32602", async () => {
      await assert.rejects(
        client.get().callTool({ name: "delete_everything", arguments: {} }),
        (e: { code?: number }) => e.code === -32602,
      );
    });
  });

  describe(`${mode}: resources and prompts`, () => {
    test("every resource reads, the template reads one review", async () => {
      const { resources } = await client.get().listResources();
      assert.ok(resources.length >= 4);
      for (const r of resources) {
        const { contents } = await client.get().readResource({ uri: r.uri });
        const text = (contents[0] as { text: string }).text;
        const file = await (await fetch(`${sidecar.url}${new URL(r.uri).pathname}`)).text();
        assert.equal(r.size, Buffer.byteLength(file), `${r.name}: its size is listed`);
        if (Buffer.byteLength(file) <= MCP_ANSWER_MAX_BYTES - 2048) {
          assert.equal(text, file, r.name);
          continue;
        }
        // Larger than an answer: a first page (the dataset) or a note, each with the file's URL.
        assert.ok(Buffer.byteLength(text) < MCP_ANSWER_MAX_BYTES, r.name);
        assert.ok(text.includes(r.uri), `${r.name} names its URL`);
        if (r.name === "reviews-dataset") {
          const page = JSON.parse(text) as { total: number; count: number; reviews: { id: string }[] };
          const whole = JSON.parse(file) as { reviews: { id: string }[] };
          assert.equal(page.total, whole.reviews.length);
          assert.deepEqual(
            page.reviews.map((x) => x.id),
            whole.reviews.slice(0, page.count).map((x) => x.id),
          );
        }
      }
      const { resourceTemplates } = await client.get().listResourceTemplates();
      assert.equal(resourceTemplates[0].uriTemplate, "reviews://review/{id}");
      const first = (await call("search_reviews", { limit: 1 })).structuredContent as { reviews: { id: string }[] };
      const { contents } = await client.get().readResource({ uri: `reviews://review/${first.reviews[0].id}` });
      assert.equal(JSON.parse((contents[0] as { text: string }).text).id, first.reviews[0].id);
    });

    test("every prompt renders with the data it needs", async () => {
      const { prompts } = await client.get().listPrompts();
      assert.deepEqual(prompts.map((p) => p.name).sort(), ["draft_owner_response", "summarize_technician_feedback"]);
      const summary = await client.get().getPrompt({
        name: "summarize_technician_feedback",
        arguments: { technician: "Tess" },
      });
      assert.match((summary.messages[0].content as { text: string }).text, /Teresa Nguyen/);
      const first = (await call("search_reviews", { limit: 1 })).structuredContent as { reviews: { id: string }[] };
      const reply = await client.get().getPrompt({
        name: "draft_owner_response",
        arguments: { review_id: first.reviews[0].id },
      });
      assert.match((reply.messages[0].content as { text: string }).text, new RegExp(first.reviews[0].id));
    });

    test("a missing required prompt argument is -32602 naming it; a missing resource is -32602 (2026-07-28) or -32002 (2025)", async () => {
      await assert.rejects(
        client.get().getPrompt({ name: "draft_owner_response", arguments: {} }),
        (e: { code?: number; message?: string }) => e.code === -32602 && /review_id/.test(e.message ?? ""),
      );
      await assert.rejects(
        client.get().readResource({ uri: "reviews://review/no-such-review" }),
        // The SDK's client gives both wire codes as its ResourceNotFoundError (mcp-protocol.test.ts checks the wire).
        (e: { code?: number; data?: { uri?: string } }) => e.data?.uri === "reviews://review/no-such-review",
      );
    });
  });
}

describe("protocol edge cases over raw HTTP", () => {
  test("initialize answers application/json with a session id; 2025-06-18 is kept", async () => {
    const { res, json } = await rpc(INIT);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.ok(res.headers.get("mcp-session-id"));
    assert.equal(json.result.protocolVersion, "2025-06-18");
  });

  test("no session id: 400; unknown session: 404; DELETE ends a session", async () => {
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    assert.equal((await rpc(list)).res.status, 400);
    assert.equal((await rpc(list, { "Mcp-Session-Id": "nope" })).res.status, 404);
    const id = await rawSession();
    assert.equal((await rpc(list, { "Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-06-18" })).res.status, 200);
    const del = await fetch(`${sidecar.url}/mcp`, {
      method: "DELETE",
      headers: { "Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-06-18" },
    });
    assert.equal(del.status, 200);
    assert.equal((await rpc(list, { "Mcp-Session-Id": id })).res.status, 404);
  });

  test("unknown method -32601; malformed JSON -32700 as JSON; body over 64 KiB 413", async () => {
    const id = await rawSession();
    const h = { "Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-06-18" };
    assert.equal((await rpc({ jsonrpc: "2.0", id: 3, method: "reviews/delete" }, h)).json.error.code, -32601);
    const bad = await rpc("{not json", h);
    assert.equal(bad.res.status, 400);
    assert.match(bad.res.headers.get("content-type") ?? "", /application\/json/);
    assert.equal(bad.json.error.code, -32700);
    const big = await rpc({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { pad: "x".repeat(70_000) } }, h);
    assert.equal(big.res.status, 413);
    assert.equal(big.json.jsonrpc, "2.0");
  });

  test("missing Accept type 406; wrong content type 415; unsupported MCP-Protocol-Version 400", async () => {
    const id = await rawSession();
    const list = { jsonrpc: "2.0", id: 5, method: "tools/list" };
    assert.equal((await rpc(list, { "Mcp-Session-Id": id, Accept: "application/json" })).res.status, 406);
    assert.equal((await rpc(list, { "Mcp-Session-Id": id, "Content-Type": "text/plain" })).res.status, 415);
    assert.equal((await rpc(list, { "Mcp-Session-Id": id, "MCP-Protocol-Version": "1999-01-01" })).res.status, 400);
  });

  test("any Origin served (CORS, public read-only data); foreign Host 403; Authorization ignored", async () => {
    const foreign = await rpc(INIT, { Origin: "https://other.example" });
    assert.equal(foreign.res.status, 200);
    assert.equal(foreign.res.headers.get("access-control-allow-origin"), "*");
    assert.match(foreign.res.headers.get("access-control-expose-headers") ?? "", /Mcp-Session-Id/i);
    assert.equal((await rpc(INIT, { Origin: "http://localhost:4321" })).res.status, 200);
    assert.equal((await rpc(INIT, { Authorization: "Bearer x" })).res.status, 200);
    const rebinding = await new Promise<number>((resolve, reject) => {
      import("node:http").then(({ request }) => {
        const req = request(
          `${sidecar.url}/mcp`,
          {
            method: "POST",
            headers: {
              Host: "attacker.example",
              "Content-Type": "application/json",
              Accept: "application/json, text/event-stream",
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify(INIT));
      });
    });
    assert.equal(rebinding, 403);
  });

  test("GET answers 405 with Allow", async () => {
    const res = await fetch(`${sidecar.url}/mcp`, { headers: { Accept: "text/event-stream" } });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "POST, DELETE");
  });
});

test("sessions are capped, and idle ones expire and are closed", async () => {
  const small = await startTestSidecar(await buildSample(), { MCP_MAX_SESSIONS: "2", MCP_SESSION_IDLE_SECONDS: "1" });
  const post = (headers: Record<string, string> = {}) =>
    fetch(`${small.url}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(INIT),
    });
  try {
    const a = await post();
    const b = await post();
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    const c = await post();
    assert.equal(c.status, 503);
    assert.equal((await c.json()).jsonrpc, "2.0");
    await new Promise((r) => setTimeout(r, 2500));
    const list = await fetch(`${small.url}/mcp`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Mcp-Session-Id": a.headers.get("mcp-session-id") as string,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    assert.equal(list.status, 404, "an expired session is gone");
    assert.equal((await post()).status, 200, "room for new sessions again");
  } finally {
    await small.close();
  }
});
