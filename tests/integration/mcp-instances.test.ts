// Two sidecar processes behind a (simulated) round-robin balancer: a legacy session started on one is
// answered by the other (signed ids, shared MCP_SESSION_SECRET), and stateless 2026-07-28 requests go anywhere.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { buildSample } from "../helpers/build.ts";
import { legacySession, modern, rpc } from "../helpers/mcp-http.ts";
import { tempDir } from "../helpers/paths.ts";
import { createTestDatabase } from "../helpers/pg.ts";
import { type SidecarProcess, startSidecarProcess } from "../helpers/sidecar-process.ts";

const SECRET = randomBytes(24).toString("hex");
let a: SidecarProcess;
let b: SidecarProcess;
let other: SidecarProcess;

before(async () => {
  const dist = await buildSample();
  const start = async (secret: string) =>
    startSidecarProcess({
      DIST_DIR: dist,
      DATA_DIR: join(await tempDir("data"), "data"),
      MCP_SESSION_SECRET: secret,
      LOG_LEVEL: "info",
    });
  [a, b, other] = await Promise.all([start(SECRET), start(SECRET), start(randomBytes(24).toString("hex"))]);
});
after(async () => {
  await Promise.all([a, b, other].map((s) => s?.stop()));
});

test("a legacy session started on one instance is answered by another with the same secret", async () => {
  const session = await legacySession(a.url);
  const onB = await rpc(b.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, session);
  assert.equal(onB.res.status, 200);
  assert.equal((onB.json.result?.tools as unknown[] | undefined)?.length, 5);
  const elsewhere = await rpc(other.url, { jsonrpc: "2.0", id: 3, method: "tools/list" }, session);
  assert.equal(elsewhere.res.status, 404, "an instance with another key cannot verify the id");
});

test("stateless 2026-07-28 requests are answered by any instance", async () => {
  for (const s of [a, b, other]) {
    const { json } = await modern(s.url, 1, "tools/call", { name: "get_business", arguments: {} });
    assert.equal(json.result?.isError, undefined);
    assert.ok((json.result?.structuredContent as { business?: unknown } | undefined)?.business);
  }
});

for (const mode of ["legacy", "modern"] as const) {
  test(`${mode}: the SDK client behind a round-robin balancer over two instances`, async () => {
    let turn = 0;
    const hits = { a: 0, b: 0 };
    const balancer: typeof fetch = (input, init) => {
      const target = turn++ % 2 === 0 ? a : b;
      hits[target === a ? "a" : "b"]++;
      const url = new URL(String(input instanceof Request ? input.url : input));
      return fetch(`${target.url}${url.pathname}${url.search}`, init);
    };
    const client = new Client(
      { name: `balanced-${mode}`, version: "1" },
      { versionNegotiation: { mode: mode === "modern" ? { pin: "2026-07-28" } : "legacy" } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), { fetch: balancer }));
    for (let i = 0; i < 4; i++) {
      const result = (await client.callTool({ name: "search_reviews", arguments: { limit: 2 } })) as {
        structuredContent?: { count: number };
      };
      assert.equal(result.structuredContent?.count, 2);
    }
    await client.close();
    assert.ok(hits.a >= 2 && hits.b >= 2, JSON.stringify(hits));
  });
}

test("two instances on one fresh database with no MCP_SESSION_SECRET accept each other's sessions and ends", async () => {
  const db = await createTestDatabase("mcpkey");
  const dist = await buildSample();
  const start = async () =>
    startSidecarProcess({
      DIST_DIR: dist,
      DATA_DIR: join(await tempDir("data"), "data"),
      DATABASE_URL: db.url,
      LOG_LEVEL: "info",
    });
  // Started together: both race to store the key; the database keeps one.
  const [x, y] = await Promise.all([start(), start()]);
  try {
    const session = await legacySession(x.url);
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    assert.equal((await rpc(y.url, list, session)).res.status, 200, "begun on x, answered by y");
    const del = await fetch(`${y.url}/mcp`, { method: "DELETE", headers: session });
    assert.equal(del.status, 200);
    // Ends reach the other instance through the database within about a second.
    let status = 200;
    for (let i = 0; i < 50 && status !== 404; i++) {
      status = (await rpc(x.url, list, session)).res.status;
      if (status !== 404) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(status, 404, "ended on y, refused on x");
  } finally {
    await Promise.all([x.stop(), y.stop()]);
    await db.drop();
  }
});
