// Memory per MCP request is bounded: thousands of requests in one 2025 session leave the heap (after a full
// GC) where it was. The v1 SDK's session transport kept an entry per request: about 10 KB per ping, so
// 5,000 requests would have kept some 50 MB. (The 30,000-request soak with the RSS curve is in npm run bench.)
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Agent, request } from "undici";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { buildSample } from "../helpers/build.ts";
import { JSON_HEADERS, legacySession } from "../helpers/mcp-http.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let sidecar: RunningSidecar;
before(async () => {
  sidecar = await startTestSidecar(await buildSample());
});
after(() => sidecar.close());

const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

test("5,000 requests in one session keep no memory per request", { timeout: 600_000 }, async () => {
  const headers = { ...JSON_HEADERS, ...(await legacySession(sidecar.url)) };
  const agent = new Agent({ connections: 8 });
  const bodies = [
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "search_reviews", arguments: { query: "great", limit: 20 } },
    }),
  ];
  const send = async (n: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < n) {
          const i = next++;
          const r = await request(`${sidecar.url}/mcp`, {
            method: "POST",
            headers,
            body: bodies[i % 2],
            dispatcher: agent,
          });
          assert.equal(r.statusCode, 200);
          await r.body.dump();
        }
      }),
    );
  };
  await send(1000); // warm-up: code paths compiled, caches filled
  const before = heapAfterGc();
  await send(5000);
  const grown = heapAfterGc() - before;
  await agent.close();
  assert.ok(grown < 10, `the heap grew by ${grown.toFixed(1)} MB over 5,000 requests`);
});
