// MCP benchmarks, called from bench/run.ts: tools/call search_reviews against the REST search in both protocol
// eras, and a soak of many requests in one legacy session with the sidecar's RSS sampled along the way.
// Loopback only.
import { Agent, request } from "undici";
import { type LoadResult, type LoadTarget, load, measureRounds } from "./lib/load.ts";
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

/** The three targets: tools/call search_reviews in both eras and GET /api/reviews/search with the same filters. */
async function mcpTargets(url: string, args: Record<string, string | number>, serverPids: number[] = []) {
  const qs = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]));
  return {
    rest: { url: `${url}/api/reviews/search?${qs}`, serverPids },
    legacy: {
      url: `${url}/mcp`,
      method: "POST" as const,
      headers: await legacySession(url),
      body: searchCall(args),
      serverPids,
    },
    modern: {
      url: `${url}/mcp`,
      method: "POST" as const,
      headers: modernHeaders("tools/call", "search_reviews"),
      body: searchCall(args, MODERN_META),
      serverPids,
    },
  } satisfies Record<string, LoadTarget>;
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

/**
 * RESULTS.md section: MCP search in both eras against the REST search, in rounds (measureRounds: the ratios are
 * taken within a round), with the sidecar's and the load generator's CPU per request.
 */
export async function mcpSearchReport(
  url: string,
  pid: number,
  runs: { rounds: number; durationS: number },
  h: { table: Table; fmt: Fmt },
) {
  const targets = await mcpTargets(url, { rating: 5, limit: 20 }, [pid]);
  for (const t of Object.values(targets)) await load({ ...t, durationS: 1 }); // warm-up
  const r = await measureRounds(targets, "rest", runs.rounds, runs.durationS);
  const row = (name: string, x: LoadResult & { ratio: number }) => [
    name,
    h.fmt(x.rps, 0),
    `${h.fmt(x.ratio, 2)}x`,
    h.fmt(x.p50),
    h.fmt(x.p99),
    `${h.fmt(x.serverUs, 1)} (${h.fmt(x.serverSystemUs, 1)})`,
    h.fmt(x.clientUs, 1),
    x.non2xx + x.errors,
  ];
  return [
    `## MCP tools/call search_reviews against the REST search (rating=5, limit=20; ${runs.rounds} rounds of ${runs.durationS} s each, medians)`,
    "",
    "Aim: MCP >= 0.6x REST. 2026-07-28: one request with the `_meta` envelope and routing headers, no session. 2025-11-25: inside one session. Each round measures REST, 2025-11-25 and 2026-07-28 one after the other; the ratio is taken within a round. CPU per answered request of the sidecar (/proc; in brackets its kernel part) and of the load generator (autocannon, in the bench process): both share the machine's two cores, and the load generator's cost grows with the body it reads.",
    "",
    h.table(
      [
        "endpoint",
        "req/s",
        "of REST",
        "p50 ms",
        "p99 ms",
        "sidecar CPU us/req (kernel)",
        "load generator CPU us/req",
        "errors",
      ],
      [row("MCP 2026-07-28 (stateless)", r.modern), row("MCP 2025-11-25 (session)", r.legacy), row("REST", r.rest)],
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

// Alone: `node bench/mcp.ts <dist> [seconds=2] [rounds=5]` prints the section above for one sidecar on `dist`
// (or `npm run bench -- --only=mcp --dist=<dist>`, which takes the bench's durations).
// MCP_BENCH_CPU_PROF=<dir>: the sidecar writes a CPU profile there on exit.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { join } = await import("node:path");
  const { mkdtemp } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { startSidecarProcess } = await import("../tests/helpers/sidecar-process.ts");
  const [dist, seconds = "2", rounds = "5"] = process.argv.slice(2);
  const { freePort } = await import("../tests/helpers/free-port.ts");
  const prof = process.env.MCP_BENCH_CPU_PROF;
  const sidecar = await startSidecarProcess({
    DIST_DIR: dist,
    DATA_DIR: await mkdtemp(join(tmpdir(), "mcp-bench-")),
    BASE_URL: "http://localhost:4321",
    LOG_LEVEL: "warn",
    PORT: String(await freePort()),
    ...(prof ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${prof}` } : {}),
  });
  try {
    const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "n/a");
    const table = (head: string[], rows: (string | number)[][]) =>
      [`| ${head.join(" | ")} |`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
    const runs = { rounds: Number(rounds), durationS: Number(seconds) };
    console.log((await mcpSearchReport(sidecar.url, sidecar.child.pid as number, runs, { table, fmt })).join("\n"));
  } finally {
    await sidecar.stop();
  }
}
