// MCP benchmarks, called from bench/run.ts: tools/call search_reviews against the REST search in both protocol
// eras, and a soak of many requests in one legacy session with the sidecar's RSS sampled along the way.
// Loopback only.
import { spawnSync } from "node:child_process";
import { Agent, request } from "undici";
import type { LoadResult } from "./lib/load.ts";

export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
};
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

export function rssMb(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const status = spawnSync("cat", [`/proc/${pid}/status`], { encoding: "utf8" }).stdout;
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** A legacy session (2025-11-25): initialize, notifications/initialized; returns the headers to send after. */
export async function legacySession(url: string): Promise<Record<string, string>> {
  const init = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    }),
  });
  await init.arrayBuffer();
  const headers = {
    ...JSON_HEADERS,
    "Mcp-Session-Id": init.headers.get("mcp-session-id") as string,
    "MCP-Protocol-Version": "2025-11-25",
  };
  const done = await fetch(`${url}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await done.arrayBuffer();
  return headers;
}

export const modernHeaders = (method: string, name?: string): Record<string, string> => ({
  ...JSON_HEADERS,
  "MCP-Protocol-Version": "2026-07-28",
  "Mcp-Method": method,
  ...(name ? { "Mcp-Name": name } : {}),
});

const searchCall = (args: Record<string, unknown>, meta?: object) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "search_reviews", arguments: args, ...(meta ? { _meta: meta } : {}) },
  });

type Measure = (
  url: string,
  extra?: Partial<Parameters<typeof import("./lib/load.ts").load>[0]>,
) => Promise<LoadResult>;

/** tools/call search_reviews in both eras against GET /api/reviews/search with the same filters. */
export async function mcpAgainstRest(url: string, measure: Measure, args: Record<string, string | number>) {
  const legacyHeaders = await legacySession(url);
  const legacy = await measure(`${url}/mcp`, { method: "POST", headers: legacyHeaders, body: searchCall(args) });
  const modern = await measure(`${url}/mcp`, {
    method: "POST",
    headers: modernHeaders("tools/call", "search_reviews"),
    body: searchCall(args, MODERN_META),
  });
  const qs = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]));
  const rest = await measure(`${url}/api/reviews/search?${qs}`);
  return { legacy, modern, rest };
}

export interface SoakSample {
  requests: number;
  rssMb: number;
}

/**
 * `total` requests in ONE legacy session (pings and search_reviews calls alternating, `concurrency` in
 * flight), sampling the sidecar's RSS every `every` requests. Before the fix the SDK's session transport kept
 * one entry per request: 30,000 requests grew RSS by 299-1,403 MB.
 */
export async function mcpSoak(url: string, pid: number | undefined, total = 30_000, every = 2_500, concurrency = 16) {
  const headers = await legacySession(url);
  const agent = new Agent({ connections: concurrency, pipelining: 1 });
  const bodies = [JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }), searchCall({ query: "great", limit: 20 })];
  const samples: SoakSample[] = [{ requests: 0, rssMb: rssMb(pid) }];
  let sent = 0;
  let failures = 0;
  const t0 = Date.now();
  while (sent < total) {
    const batch = Math.min(every, total - sent);
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < batch) {
          const i = sent + next++;
          const r = await request(`${url}/mcp`, { method: "POST", headers, body: bodies[i % 2], dispatcher: agent });
          if (r.statusCode !== 200) failures++;
          await r.body.dump();
        }
      }),
    );
    sent += batch;
    samples.push({ requests: sent, rssMb: rssMb(pid) });
  }
  await agent.close();
  return { samples, failures, seconds: (Date.now() - t0) / 1000 };
}
