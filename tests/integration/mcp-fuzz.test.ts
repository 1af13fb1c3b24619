// Random JSON-RPC traffic (valid and invalid, both eras, batches, stray headers) against a real sidecar:
// no 5xx, and every answer is a well-formed JSON-RPC response (or 202 with no body for notifications).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import fc from "fast-check";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { MCP_METHODS } from "../../src/domain/mcp-discovery.ts";
import { buildSample } from "../helpers/build.ts";
import { JSON_HEADERS, legacySession, MODERN_META } from "../helpers/mcp-http.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

let sidecar: RunningSidecar;
let sessions: Record<string, string>[];
before(async () => {
  sidecar = await startTestSidecar(await buildSample());
  sessions = [await legacySession(sidecar.url), await legacySession(sidecar.url, "2025-03-26")];
});
after(() => sidecar.close());

const METHODS = [...MCP_METHODS, "reviews/delete"];
const TOOLS = ["get_business", "search_reviews", "get_review", "get_reviews_since", "get_insights", "nope"];

const params = fc.oneof(
  fc.constant(undefined),
  fc.record(
    {
      name: fc.oneof(
        fc.constantFrom(...TOOLS, "draft_owner_response", "summarize_technician_feedback"),
        fc.jsonValue(),
      ),
      uri: fc.oneof(fc.constantFrom("reviews://review/x", "http://localhost:4321/reviews.json"), fc.jsonValue()),
      arguments: fc.oneof(
        fc.dictionary(
          fc.constantFrom("limit", "rating", "query", "id", "date", "section", "review_id", "x"),
          fc.jsonValue(),
        ),
        fc.jsonValue(),
      ),
      cursor: fc.jsonValue(),
      protocolVersion: fc.constantFrom("2025-11-25", "2025-06-18", "2025-03-26", "1999-01-01"),
      capabilities: fc.constant({}),
      clientInfo: fc.constant({ name: "fuzz", version: "1" }),
      _meta: fc.oneof(fc.constant(MODERN_META), fc.jsonValue()),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), fc.jsonValue()),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.jsonValue()),
    method: fc.oneof(fc.constantFrom(...METHODS), fc.jsonValue()),
    params,
    result: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

const body = fc.oneof(
  { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
  { weight: 2, arbitrary: fc.array(message, { maxLength: 4 }).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

const headers = fc.record(
  {
    session: fc.oneof(fc.constantFrom(0, 1), fc.constant("bogus"), fc.constant(undefined)),
    version: fc.constantFrom("2026-07-28", "2025-11-25", "2025-03-26", "1999-01-01", undefined),
    method: fc.constantFrom("tools/call", "ping", undefined),
    accept: fc.constantFrom(JSON_HEADERS.Accept, "application/json", "text/html", undefined),
    contentType: fc.constantFrom("application/json", "text/plain", undefined),
  },
  { requiredKeys: [] },
);

function isRpcAnswer(v: unknown): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  const idOk = r.id === null || typeof r.id === "string" || typeof r.id === "number" || r.id === undefined;
  const err = r.error as { code?: unknown; message?: unknown } | undefined;
  const errOk = err === undefined || (Number.isInteger(err.code) && typeof err.message === "string");
  return r.jsonrpc === "2.0" && idOk && "result" in r !== "error" in r && errOk;
}

test("random JSON-RPC messages: no 5xx, every answer well-formed", { timeout: 300_000 }, async () => {
  let requests = 0;
  await fc.assert(
    fc.asyncProperty(body, headers, async (text, h) => {
      const sent: Record<string, string> = {};
      if (typeof h.session === "number") Object.assign(sent, sessions[h.session]);
      else if (h.session) sent["Mcp-Session-Id"] = h.session;
      if (h.version) sent["MCP-Protocol-Version"] = h.version;
      if (h.method) sent["Mcp-Method"] = h.method;
      if (h.accept) sent.Accept = h.accept;
      sent["Content-Type"] = h.contentType ?? "application/json";
      // A hang fails here, naming the message, instead of running into the test's timeout.
      const res = await fetch(`${sidecar.url}/mcp`, {
        method: "POST",
        headers: sent,
        body: text,
        signal: AbortSignal.timeout(20_000),
      }).catch((e: Error) => assert.fail(`no answer to ${text} ${JSON.stringify(sent)}: ${e.message}`));
      requests++;
      const answer = await res.text();
      assert.ok(res.status < 500, `${res.status} for ${text} ${JSON.stringify(sent)}: ${answer}`);
      if (res.status === 202) return assert.equal(answer, "");
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/, `${text}: ${answer}`);
      const parsed = JSON.parse(answer) as unknown;
      const all = Array.isArray(parsed) ? parsed : [parsed];
      assert.ok(all.length > 0 && all.every(isRpcAnswer), `${text} -> ${answer}`);
    }),
    { numRuns: 5000 },
  );
  assert.equal(requests, 5000);
  // The server is still healthy afterwards.
  const check = await fetch(`${sidecar.url}/mcp`, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...sessions[0] },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  assert.equal(check.status, 200);
});
