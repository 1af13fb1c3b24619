// MCP benchmarks, called from bench/run.ts: tools/call search_reviews against the REST search in both protocol
// eras, and a soak of many requests in one legacy session with the sidecar's RSS sampled along the way.
// Loopback only.
import { Agent, request } from "undici";
import type { LoadResult } from "./lib/load.ts";
import { rssMb } from "./lib/rss.ts";

export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
};
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

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

type Table = (head: string[], rows: (string | number)[][]) => string;
type Fmt = (x: number, d?: number) => string;

/** RESULTS.md section: MCP search in both eras against the REST search. */
export async function mcpSearchReport(url: string, measure: Measure, h: { table: Table; fmt: Fmt }) {
  const args = { rating: 5, limit: 20 };
  const { legacy, modern, rest } = await mcpAgainstRest(url, measure, args);
  const row = (name: string, r: LoadResult) => [
    name,
    h.fmt(r.rps, 0),
    `${h.fmt(r.rps / rest.rps, 2)}x`,
    h.fmt(r.p50),
    h.fmt(r.p99),
    r.non2xx + r.errors,
  ];
  return [
    "## MCP tools/call search_reviews against the REST search (rating=5, limit=20)",
    "",
    "Aim (issue 15): MCP >= 0.6x REST. 2026-07-28: one request with the `_meta` envelope and routing headers, no session. 2025-11-25: inside one session.",
    "",
    h.table(
      ["endpoint", "req/s", "of REST", "p50 ms", "p99 ms", "errors"],
      [row("MCP 2026-07-28 (stateless)", modern), row("MCP 2025-11-25 (session)", legacy), row("REST", rest)],
    ),
    "",
  ];
}

/** Growth allowed between the sample after warm-up (5,000 requests) and the last one. */
export const SOAK_BOUND_MB = 50;

/** RESULTS.md section: the RSS curve of many requests in one legacy session. */
export async function mcpSoakReport(
  url: string,
  pid: number | undefined,
  total: number,
  h: { table: Table; fmt: Fmt },
) {
  const soak = await mcpSoak(url, pid, total);
  const warm = soak.samples.find((s) => s.requests >= 5000) ?? soak.samples[1];
  const last = soak.samples[soak.samples.length - 1];
  const growth = last.rssMb - warm.rssMb;
  return [
    `## MCP soak: ${total.toLocaleString("en")} requests in one 2025-11-25 session (ping and search_reviews alternating, 16 in flight)`,
    "",
    `RSS growth from ${warm.requests.toLocaleString("en")} requests to the end: ${h.fmt(growth, 1)} MB (bound ${SOAK_BOUND_MB} MB: ${growth <= SOAK_BOUND_MB ? "held" : "MISSED"}); ${soak.failures} non-200 answers; ${h.fmt(total / soak.seconds, 0)} req/s. Before the fix (v1 SDK session transport) 30,000 pings added 299 MB and 30,000 searches 1,403 MB, growing without bound.`,
    "",
    h.table(
      ["requests", "RSS MB"],
      soak.samples.map((s) => [s.requests, h.fmt(s.rssMb, 0)]),
    ),
    "",
  ];
}

// Alone: `node bench/mcp.ts <dist> [seconds=2] [rounds=5]` measures MCP search in both eras against REST on
// one sidecar: each round measures REST, 2025-11-25 and 2026-07-28 one after the other for `seconds` each, and
// the ratios are taken within a round (on a shared, loaded machine, neighbouring slices see the same load),
// then the median over the rounds. Also the sidecar's CPU time per answered request (from /proc, so the load
// generator and other processes do not count): less disturbed by a loaded machine than throughput.
// MCP_BENCH_CPU_PROF=<dir>: the sidecar writes a CPU profile there on exit.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { createServer } = await import("node:net");
  const { join } = await import("node:path");
  const { mkdtemp } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { startSidecarProcess } = await import("../tests/helpers/sidecar-process.ts");
  const { load, median } = await import("./lib/load.ts");
  const { readFileSync } = await import("node:fs");
  /** CPU seconds (user + system) the process has used, from /proc (Linux). */
  const cpuSeconds = (pid: number) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const [dist, seconds = "2", rounds = "5"] = process.argv.slice(2);
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as import("node:net").AddressInfo;
      s.close(() => resolve(port));
    });
  });
  const prof = process.env.MCP_BENCH_CPU_PROF;
  const sidecar = await startSidecarProcess({
    DIST_DIR: dist,
    DATA_DIR: await mkdtemp(join(tmpdir(), "mcp-bench-")),
    BASE_URL: "http://localhost:4321",
    LOG_LEVEL: "warn",
    PORT: String(port),
    ...(prof ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${prof}` } : {}),
  });
  try {
    const url = sidecar.url;
    const args = { rating: 5, limit: 20 };
    const targets = {
      rest: { url: `${url}/api/reviews/search?rating=5&limit=20` },
      legacy: { url: `${url}/mcp`, method: "POST" as const, headers: await legacySession(url), body: searchCall(args) },
      modern: {
        url: `${url}/mcp`,
        method: "POST" as const,
        headers: modernHeaders("tools/call", "search_reviews"),
        body: searchCall(args, MODERN_META),
      },
    };
    for (const t of Object.values(targets)) await load({ ...t, durationS: 1 }); // warm-up
    type Key = keyof typeof targets;
    const runs: Record<Key, LoadResult[]> = { rest: [], legacy: [], modern: [] };
    const cpu: Record<Key, number[]> = { rest: [], legacy: [], modern: [] };
    const pid = sidecar.child.pid as number;
    for (let i = 0; i < Number(rounds); i++)
      for (const [k, t] of Object.entries(targets) as [Key, (typeof targets)[Key]][]) {
        const before = cpuSeconds(pid);
        const r = await load({ ...t, durationS: Number(seconds) });
        runs[k].push(r);
        cpu[k].push(((cpuSeconds(pid) - before) * 1e6) / (r.rps * Number(seconds)));
      }
    for (const [k, rs] of Object.entries(runs) as [Key, LoadResult[]][]) {
      const ratios = rs.map((r, i) => r.rps / runs.rest[i].rps);
      const us = median(cpu[k]);
      const rps = median(rs.map((r) => r.rps)).toFixed(0);
      const rounds = ratios.map((x) => x.toFixed(2)).join(" ");
      const errors = rs.reduce((n, r) => n + r.non2xx + r.errors, 0);
      console.log(
        `${k.padEnd(7)} ${rps.padStart(6)} req/s  ${median(ratios).toFixed(2)}x REST (rounds ${rounds})  p50 ${median(rs.map((r) => r.p50))} ms  p99 ${median(rs.map((r) => r.p99))} ms  errors ${errors}  sidecar CPU ${us.toFixed(0)} us/request (REST/this ${(median(cpu.rest) / us).toFixed(2)})`,
      );
    }
  } finally {
    await sidecar.stop();
  }
}
