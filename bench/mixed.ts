// Heavy and slow clients at once, as a public API meets them: many connections of searches, since answers whole
// and paged, MCP calls and reads, and slow readers of the largest answers, while a health probe and the sidecar's
// RSS are watched. Also since/2000-01-01 alone: first byte, throughput against nginx sending a static file of the
// same size, and memory under many slow readers of it. Called from bench/run.ts. Loopback only.
import { createWriteStream } from "node:fs";
import { chmod, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";
import { freePort } from "../tests/helpers/free-port.ts";
import { startNginx } from "../tests/helpers/nginx-process.ts";
import { cpuPressureSeconds, cpuTimes, runQueueWaitSeconds } from "./lib/cpu.ts";
import { type InsideStats, percentile, readSlowly, residentParts, watch } from "./lib/probe.ts";
import { MODERN_META, modernHeaders } from "./mcp.ts";

/** The rate of a slow reader: a phone on a poor network, or a client that processes as it reads. */
export const SLOW_BYTES_PER_SECOND = 64 * 1024;
const OLDEST = "2000-01-01";
/** The generated content spans these dates (bench/generate.ts). */
const FIRST_DAY = Date.parse("2016-01-01");
const LAST_DAY = Date.parse("2026-11-15");
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const randomDate = (from = FIRST_DAY, to = LAST_DAY) => day(from + Math.random() * (to - from));
/** A date at random over the whole span, or 2000-01-01 (before every review: the whole dataset) one time in five. */
const anyDate = () => (Math.random() < 0.2 ? OLDEST : randomDate());
const COMMON = ["great", "friendly", "clean"];
const RARE = ["grinding", "thermostat", "invoice"];
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];

interface Outcome {
  status: number;
  bytes: number;
  /** A JSON-RPC error object in an MCP answer. */
  rpcError?: boolean;
}

type Kind = { name: string; weight: number; run: (c: Client) => Promise<Outcome> };

interface Client {
  url: string;
  baseUrl: string;
  agent: Agent;
  /** Each client its own address (X-Forwarded-For with TRUST_PROXY=loopback): per-client limits see 100 users. */
  headers: Record<string, string>;
  signal: AbortSignal;
}

async function get(c: Client, path: string): Promise<Outcome & { text?: string }> {
  const r = await request(`${c.url}${path}`, { dispatcher: c.agent, headers: c.headers, signal: c.signal });
  const text = await r.body.text();
  return { status: r.statusCode, bytes: Buffer.byteLength(text), text };
}

/**
 * Only the answer's length: decoding a whole-dataset answer (70 MB at 100k) into a string held the bench's
 * own event loop for seconds, stalling its other 99 connections and the load it was meant to make.
 */
async function getBytes(c: Client, path: string): Promise<Outcome> {
  const r = await request(`${c.url}${path}`, { dispatcher: c.agent, headers: c.headers, signal: c.signal });
  let bytes = 0;
  for await (const chunk of r.body) bytes += (chunk as Buffer).length;
  return { status: r.statusCode, bytes };
}

let rpcId = 0;
async function mcp(c: Client, method: string, params: Record<string, unknown>): Promise<Outcome> {
  const name = typeof params.name === "string" ? params.name : (params.uri as string | undefined);
  const r = await request(`${c.url}/mcp`, {
    method: "POST",
    dispatcher: c.agent,
    signal: c.signal,
    headers: { ...c.headers, ...modernHeaders(method, name) },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params: { ...params, _meta: MODERN_META } }),
  });
  const text = await r.body.text();
  let rpcError = true;
  try {
    rpcError = (JSON.parse(text) as { error?: unknown }).error !== undefined;
  } catch {}
  return { status: r.statusCode, bytes: Buffer.byteLength(text), rpcError };
}

/** What the fast connections send, by weight (out of 100). */
const KINDS: Kind[] = [
  { name: "search, common word", weight: 20, run: (c) => get(c, `/api/reviews/search?query=${pick(COMMON)}`) },
  { name: "search, rare word", weight: 10, run: (c) => get(c, `/api/reviews/search?query=${pick(RARE)}`) },
  {
    name: "search, rating",
    weight: 5,
    run: (c) => get(c, `/api/reviews/search?rating=${1 + Math.floor(Math.random() * 5)}`),
  },
  {
    name: "since, recent date, whole",
    weight: 12,
    run: (c) => getBytes(c, `/api/reviews/since/${randomDate(LAST_DAY - 60 * 86_400_000)}`),
  },
  {
    name: "since, any date, 3 pages of 100",
    weight: 15,
    run: async (c) => {
      const date = anyDate();
      let cursor: string | null = null;
      const total: Outcome = { status: 200, bytes: 0 };
      for (let page = 0; page < 3; page++) {
        const qs: string = cursor ? `limit=100&cursor=${cursor}` : "limit=100";
        const r = await get(c, `/api/reviews/since/${date}?${qs}`);
        total.bytes += r.bytes;
        if (r.status !== 200) return { ...total, status: r.status };
        cursor = (JSON.parse(r.text as string) as { next_cursor: string | null }).next_cursor;
        if (!cursor) break;
      }
      return total;
    },
  },
  {
    name: `since ${OLDEST}, whole, read at full speed`,
    weight: 1,
    run: (c) => getBytes(c, `/api/reviews/since/${OLDEST}`),
  },
  {
    name: "MCP get_reviews_since",
    weight: 15,
    run: (c) => mcp(c, "tools/call", { name: "get_reviews_since", arguments: { date: anyDate(), limit: 100 } }),
  },
  {
    name: "MCP search_reviews",
    weight: 15,
    run: (c) => mcp(c, "tools/call", { name: "search_reviews", arguments: { query: pick([...COMMON, ...RARE]) } }),
  },
  {
    name: "MCP resources/read reviews.json",
    weight: 7,
    run: (c) => mcp(c, "resources/read", { uri: `${c.baseUrl}/reviews.json` }),
  },
];
const WEIGHTS = KINDS.reduce((s, k) => s + k.weight, 0);
function pickKind(): Kind {
  let r = Math.random() * WEIGHTS;
  for (const k of KINDS) {
    r -= k.weight;
    if (r < 0) return k;
  }
  return KINDS[0];
}

/** The slow clients' requests, alternating: the dataset file and since answers of an old date. */
const SLOW_PATHS = [() => "/reviews.json", () => `/api/reviews/since/${randomDate(Date.parse(OLDEST), FIRST_DAY)}`];

const RESET_CODES = new Set(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE", "UND_ERR_CLOSED"]);
const isAbort = (e: unknown) => (e as { name?: string }).name === "AbortError";

interface KindStats {
  ms: number[];
  bytes: number;
  maxBytes: number;
  non2xx: Map<number, number>;
  rpcErrors: number;
}

export interface MixedResult {
  durationS: number;
  connections: number;
  slowClients: number;
  kinds: Map<string, KindStats>;
  completed: number[];
  probes: { at: number; ms: number; ok: boolean }[];
  /** The same probe timed inside the bench's own process, which also drives the load (for comparison). */
  benchProbes: { at: number; ms: number; ok: boolean }[];
  /** Event-loop delay of the bench's process during the load, and of the watcher's over its run (ms). */
  benchLoop: { p99_ms: number; max_ms: number };
  watcherLoop: { p99_ms: number; max_ms: number };
  rss: { at: number; mb: number }[];
  loadStart: number;
  loadEnd: number;
  tooMany: number;
  errors: number;
  resets: number;
  /** Resets by what was asked: a starved client's kept-alive connections fail on every kind alike, a cut body on its own. */
  resetsBy: Map<string, number>;
  errorSamples: string[];
  slowBytes: number;
  largestMcp: number;
  /** The sidecar's event-loop delay and memory during the load. */
  inside: InsideStats;
  /** The sidecar's memory before the load, at its end and after the quiet time: its own view and the kernel's. */
  memory: { when: string; inside?: InsideStats["memory"]; parts: Awaited<ReturnType<typeof residentParts>> }[];
  /** CPU seconds the sidecar used during the load. */
  cpuS: number;
  /** Seconds the sidecar's main thread waited for a CPU during the load. */
  waitS: number;
  /** Share of the load's time in which some task of the machine waited for a CPU (PSI "some"). */
  pressure: number;
}

/**
 * `connections` connections in all for `durationS` seconds: `slowClients` of them read reviews.json and old since
 * answers at SLOW_BYTES_PER_SECOND, the rest send KINDS one request after another. Then the watch goes on for
 * `afterS` seconds with no load, to see whether the memory comes back.
 */
export async function mixedLoad(o: {
  url: string;
  baseUrl: string;
  pid: number;
  durationS: number;
  afterS: number;
  connections?: number;
  slowClients?: number;
  inside: () => Promise<InsideStats>;
}): Promise<MixedResult> {
  const connections = o.connections ?? 100;
  const slowClients = o.slowClients ?? 20;
  const w = watch(o.url, o.pid);
  await sleep(2000); // RSS and probes before the load
  const stop = new AbortController();
  const memory: MixedResult["memory"] = [
    { when: "before the load", inside: (await o.inside()).memory, parts: await residentParts(o.pid) },
  ];
  const cpu = () => {
    const t = cpuTimes(o.pid);
    return t.user + t.system;
  };
  const cpu0 = cpu();
  w.benchLoop();
  const wait0 = runQueueWaitSeconds(o.pid);
  const pressure0 = cpuPressureSeconds();
  const result: MixedResult = {
    durationS: o.durationS,
    connections,
    slowClients,
    kinds: new Map(KINDS.map((k) => [k.name, { ms: [], bytes: 0, maxBytes: 0, non2xx: new Map(), rpcErrors: 0 }])),
    completed: [],
    probes: w.probes,
    benchProbes: w.benchProbes,
    benchLoop: { p99_ms: Number.NaN, max_ms: Number.NaN },
    watcherLoop: w.watcherLoop,
    rss: w.rss,
    loadStart: w.now(),
    loadEnd: 0,
    tooMany: 0,
    errors: 0,
    resets: 0,
    resetsBy: new Map(),
    errorSamples: [],
    slowBytes: 0,
    largestMcp: 0,
    inside: { max_ms: Number.NaN, p99_ms: Number.NaN, peak: { rss: 0, heapUsed: 0, external: 0, arrayBuffers: 0 } },
    memory,
    cpuS: 0,
    waitS: 0,
    pressure: 0,
  };
  const failed = (what: string, e: unknown) => {
    if (isAbort(e) || stop.signal.aborted) return;
    const code = String((e as { code?: string }).code ?? (e as Error).name);
    if (RESET_CODES.has(code)) {
      result.resets++;
      result.resetsBy.set(what, (result.resetsBy.get(what) ?? 0) + 1);
    } else result.errors++;
    if (result.errorSamples.length < 8) result.errorSamples.push(`${what}: ${code} ${(e as Error).message}`);
  };
  const client = (i: number): Client => ({
    url: o.url,
    baseUrl: o.baseUrl,
    agent: new Agent({ connections: 1, pipelining: 1 }),
    headers: { "X-Forwarded-For": `10.${(i >> 8) & 255}.${i & 255}.1` },
    signal: stop.signal,
  });
  const fast = Array.from({ length: connections - slowClients }, async (_, i) => {
    const c = client(i);
    while (!stop.signal.aborted) {
      const kind = pickKind();
      const s = result.kinds.get(kind.name) as KindStats;
      const t = performance.now();
      try {
        const out = await kind.run(c);
        s.ms.push(performance.now() - t);
        s.bytes += out.bytes;
        s.maxBytes = Math.max(s.maxBytes, out.bytes);
        if (kind.name.startsWith("MCP")) result.largestMcp = Math.max(result.largestMcp, out.bytes);
        if (out.rpcError) s.rpcErrors++;
        if (out.status === 429) result.tooMany++;
        else if (out.status < 200 || out.status > 299 || out.rpcError) {
          result.errors++;
          if (result.errorSamples.length < 8) result.errorSamples.push(`${kind.name}: HTTP ${out.status}`);
        }
        if (out.status < 200 || out.status > 299) s.non2xx.set(out.status, (s.non2xx.get(out.status) ?? 0) + 1);
        result.completed.push(w.now());
      } catch (e) {
        failed(kind.name, e);
      }
    }
    await c.agent.destroy();
  });
  const slow = Array.from({ length: slowClients }, async (_, i) => {
    const c = client(1000 + i);
    let n = i;
    while (!stop.signal.aborted) {
      const path = SLOW_PATHS[n++ % SLOW_PATHS.length]();
      try {
        const r = await request(`${o.url}${path}`, {
          dispatcher: c.agent,
          signal: stop.signal,
          headers: { ...c.headers, "Accept-Encoding": "br, gzip" },
        });
        if (r.statusCode === 429) result.tooMany++;
        else if (r.statusCode !== 200) {
          result.errors++;
          if (result.errorSamples.length < 8) result.errorSamples.push(`slow ${path}: HTTP ${r.statusCode}`);
        }
        await readSlowly(r.body, SLOW_BYTES_PER_SECOND, (n) => {
          result.slowBytes += n;
        });
        result.completed.push(w.now());
      } catch (e) {
        failed(`slow ${path.startsWith("/api/") ? "since" : path}`, e);
      }
    }
    await c.agent.destroy();
  });
  await sleep(o.durationS * 1000);
  result.loadEnd = w.now();
  result.cpuS = cpu() - cpu0;
  result.waitS = runQueueWaitSeconds(o.pid) - wait0;
  result.pressure = (cpuPressureSeconds() - pressure0) / (result.loadEnd - result.loadStart);
  result.inside = await o.inside();
  result.benchLoop = w.benchLoop();
  memory.push({ when: "at the end of the load", inside: result.inside.memory, parts: await residentParts(o.pid) });
  stop.abort();
  await Promise.all([...fast, ...slow]);
  await sleep(o.afterS * 1000);
  memory.push({
    when: `${o.afterS} s after the load`,
    inside: (await o.inside()).memory,
    parts: await residentParts(o.pid),
  });
  await w.stop();
  return result;
}

type Table = (head: string[], rows: (string | number)[][]) => string;
type Fmt = (x: number, d?: number) => string;
const MB = 1024 * 1024;

/** RESULTS.md section of a mixedLoad run, with the aims of bounded answers: met or missed. */
export function mixedReport(r: MixedResult, jsonBytes: number, h: { table: Table; fmt: Fmt }): string[] {
  const { fmt } = h;
  const during = r.probes.filter((p) => p.at >= r.loadStart && p.at <= r.loadEnd);
  const probeMs = during.map((p) => p.ms);
  const jsonMb = jsonBytes / MB;
  const before = r.rss.filter((s) => s.at < r.loadStart).at(-1)?.mb ?? Number.NaN;
  const peak = Math.max(...r.rss.filter((s) => s.at >= r.loadStart).map((s) => s.mb));
  const atEnd = r.rss.filter((s) => s.at <= r.loadEnd).at(-1)?.mb ?? Number.NaN;
  const last = r.rss.at(-1) as { at: number; mb: number };
  const under3 = r.rss.find((s) => s.at >= r.loadEnd && s.mb < 3 * jsonMb);
  const p50 = percentile(probeMs, 50);
  const p99 = percentile(probeMs, 99);
  const max = Math.max(...probeMs);
  const failedProbes = during.filter((p) => !p.ok).length;
  const benchMs = r.benchProbes.filter((p) => p.at >= r.loadStart && p.at <= r.loadEnd).map((p) => p.ms);
  const met = (ok: boolean) => (ok ? "met" : "**missed**");
  const kindRows = [...r.kinds].map(([name, s]) => [
    name,
    s.ms.length,
    fmt(percentile(s.ms, 50)),
    fmt(percentile(s.ms, 99)),
    fmt(Math.max(0, ...s.ms)),
    fmt(s.maxBytes / 1024, 1),
    [...s.non2xx].map(([code, n]) => `${code}: ${n}`).join(", ") || "-",
  ]);
  // The curve: one row per bucket of the run (load, then the quiet time after it).
  const bucket = r.durationS >= 60 ? 10 : 5;
  const endAt = last.at;
  const curve: (string | number)[][] = [];
  for (let t = 0; t < endAt; t += bucket) {
    const inB = <T extends { at: number }>(xs: T[]) => xs.filter((x) => x.at >= t && x.at < t + bucket);
    const ps = inB(r.probes).map((p) => p.ms);
    const rs = inB(r.rss).map((s) => s.mb);
    const done = r.completed.filter((x) => x >= t && x < t + bucket).length;
    const phase = t + bucket <= r.loadStart ? "before" : t < r.loadEnd ? "load" : "after";
    curve.push([
      `${t}-${t + bucket}`,
      phase,
      done,
      fmt(percentile(ps, 50)),
      fmt(percentile(ps, 99)),
      fmt(Math.max(0, ...ps)),
      fmt(Math.max(0, ...rs), 0),
    ]);
  }
  return [
    `## Mixed load: ${r.connections} connections for ${r.durationS} s (${r.slowClients} of them slow readers)`,
    "",
    `${r.connections - r.slowClients} connections send the requests below one after another, each connection its own client address (X-Forwarded-For, TRUST_PROXY=loopback); ${r.slowClients} more read reviews.json (br) and since answers of dates before the first review at ${SLOW_BYTES_PER_SECOND / 1024} KiB/s, each its own address, and are cut off when the load ends. MCP requests are 2026-07-28 (\`_meta\` envelope, no session). A health probe (GET /healthz, its own connection, from a process of its own as a health checker: bench/lib/watcher.ts, whose event-loop delay was p99 ${fmt(r.watcherLoop.p99_ms)} ms, max ${fmt(r.watcherLoop.max_ms)} ms) every 100 ms; the sidecar's RSS from /proc every 500 ms, from 2 s before the load to ${fmt(last.at - r.loadEnd, 0)} s after it. Errors: non-2xx answers other than 429, JSON-RPC errors, and failed requests; resets counted apart.`,
    "",
    h.table(
      ["aim", "measured", ""],
      [
        ["health probe p99 <= 50 ms", `${fmt(p99)} ms (p50 ${fmt(p50)}, ${during.length} probes)`, met(p99 <= 50)],
        ["health probe max <= 250 ms", `${fmt(max)} ms`, met(max <= 250)],
        [
          "(for comparison, not the aim) the same probe timed inside the bench's process",
          `p99 ${fmt(percentile(benchMs, 99))} ms, max ${fmt(Math.max(...benchMs))} ms (p50 ${fmt(percentile(benchMs, 50))}, ${benchMs.length} probes); the bench's event-loop delay p99 ${fmt(r.benchLoop.p99_ms)} ms, max ${fmt(r.benchLoop.max_ms)} ms`,
          "",
        ],
        [
          "RSS peak <= 4x reviews.json",
          `${fmt(peak, 0)} MB = ${fmt(peak / jsonMb, 2)}x of ${fmt(jsonMb, 1)} MB (before the load ${fmt(before, 0)} MB)`,
          met(peak <= 4 * jsonMb),
        ],
        [
          "RSS under 3x reviews.json within 30 s after the load",
          `${fmt(atEnd, 0)} MB at the end of the load; ${under3 ? `under 3x after ${fmt(under3.at - r.loadEnd, 1)} s` : "not under 3x"}; ${fmt(last.mb, 0)} MB after ${fmt(last.at - r.loadEnd, 0)} s`,
          met(under3 !== undefined && under3.at - r.loadEnd <= 30),
        ],
        [
          "0 errors, 0 resets",
          `${r.errors} errors, ${r.resets} resets, ${failedProbes} failed probes; ${r.tooMany} answers 429 (per-client cap)`,
          met(r.errors === 0 && r.resets === 0 && failedProbes === 0),
        ],
        ["every MCP answer <= 64 KiB", `largest ${fmt(r.largestMcp / 1024, 1)} KiB`, met(r.largestMcp <= 64 * 1024)],
      ],
    ),
    "",
    ...(r.errorSamples.length
      ? [`Errors and resets seen (first few): ${r.errorSamples.map((e) => `\`${e}\``).join("; ")}`, ""]
      : []),
    ...(r.resets
      ? [
          `Resets by request: ${[...r.resetsBy]
            .sort((a, b) => b[1] - a[1])
            .map(([what, n]) => `${what} ${n}`)
            .join("; ")}.`,
          "",
        ]
      : []),
    `Inside the sidecar during the load (bench/lib/loop-monitor.ts): event-loop delay p99 ${fmt(r.inside.p99_ms)} ms, max ${fmt(r.inside.max_ms)} ms; at its highest RSS ${fmt(r.inside.peak.rss, 0)} MB: heap used ${fmt(r.inside.peak.heapUsed, 0)} MB, external ${fmt(r.inside.peak.external, 0)} MB (array buffers ${fmt(r.inside.peak.arrayBuffers, 0)} MB). CPU: ${fmt(r.cpuS, 1)} s of the sidecar in ${r.durationS} s (${fmt((r.cpuS / r.durationS) * 100, 0)}% of a core), ${fmt((r.cpuS * 1000) / Math.max(1, r.completed.filter((t) => t <= r.loadEnd).length), 2)} ms per completed request; its main thread waited ${fmt(r.waitS, 1)} s for a CPU (run queue, /proc/<pid>/schedstat); some task of the machine waited for a CPU ${fmt(r.pressure * 100, 0)}% of the time (/proc/pressure/cpu): the machine is shared with other work.`,
    "",
    `The sidecar's five longest event-loop stalls during the load (ms: stall = on a CPU + waiting in the run queue for one + idle): ${(
      r.inside.stalls ?? []
    )
      .slice(0, 5)
      .map((x) => `${fmt(x.ms)} = ${fmt(x.cpu_ms)} + ${fmt(x.wait_ms)}`)
      .join("; ")}.`,
    "",
    "The sidecar's memory (MB): the kernel's resident set by kind (/proc/<pid>/smaps_rollup) and V8's view (process.memoryUsage()).",
    "",
    h.table(
      ["when", "RSS", "anonymous", "file-backed", "heap total", "heap used", "external", "array buffers"],
      r.memory.map((m) => [
        m.when,
        fmt(m.parts.rss, 0),
        fmt(m.parts.anonymous, 0),
        fmt(m.parts.file, 0),
        fmt(m.inside?.heapTotal ?? Number.NaN, 0),
        fmt(m.inside?.heapUsed ?? Number.NaN, 0),
        fmt(m.inside?.external ?? Number.NaN, 0),
        fmt(m.inside?.arrayBuffers ?? Number.NaN, 0),
      ]),
    ),
    "",
    `Anonymous mappings holding the most (MB resident of MB mapped): ${r.memory
      .map(
        (m) =>
          `${m.when}: ${m.parts.largest.map((x) => `${x.name} ${fmt(x.rssMb, 1)} of ${fmt(x.sizeMb, 1)}`).join(", ")}`,
      )
      .join("; ")}.`,
    "",
    `Requests (whole answers, milliseconds from sending to the last byte); slow readers received ${fmt(r.slowBytes / MB, 1)} MB.`,
    "",
    h.table(["request", "answered", "p50 ms", "p99 ms", "max ms", "largest KiB", "non-2xx"], kindRows),
    "",
    `The curve, ${bucket} s buckets: requests completed, health probe latency, highest RSS sampled.`,
    "",
    h.table(["seconds", "phase", "completed", "probe p50 ms", "probe p99 ms", "probe max ms", "RSS MB"], curve),
    "",
  ];
}

export interface SinceAloneResult {
  bytes: number;
  firstByteMs: number[];
  sidecarMBps: number[];
  nginxMBps: number[];
  slow: {
    readers: number;
    seconds: number;
    before: number;
    peak: number;
    after: number;
    probeP99: number;
    probeMax: number;
    loopP99: number;
    loopMax: number;
  };
}

/** Time to the first body byte and to the last, one request. */
async function timed(url: string, headers: Record<string, string> = {}) {
  const t = performance.now();
  const r = await request(url, { headers });
  let first = Number.NaN;
  let bytes = 0;
  for await (const chunk of r.body) {
    if (Number.isNaN(first)) first = performance.now() - t;
    bytes += (chunk as Buffer).length;
  }
  return { status: r.statusCode, first, totalMs: performance.now() - t, bytes };
}

/**
 * since/2000-01-01 (every review) on a sidecar started for it: first byte of 10 requests one after
 * another; throughput against nginx sending a static file of the same size, in alternating rounds; then
 * `readers` slow readers at once, each its own address, for `slowS` seconds.
 */
export async function sinceAlone(o: {
  url: string;
  pid: number;
  rounds: number;
  readers: number;
  slowS: number;
  inside: () => Promise<InsideStats>;
}): Promise<SinceAloneResult> {
  const path = `/api/reviews/since/${OLDEST}`;
  const dir = await mkdtemp(join(tmpdir(), "bench-since-"));
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  try {
    const firstByteMs: number[] = [];
    for (let i = 0; i < 10; i++) firstByteMs.push((await timed(`${o.url}${path}`)).first);
    const file = join(dir, "since.json");
    const r = await request(`${o.url}${path}`);
    await pipeline(r.body, createWriteStream(file));
    const bytes = (await stat(file)).size;
    // nginx's worker runs as an unprivileged user: it must be able to read the file.
    await chmod(dir, 0o755);
    await chmod(file, 0o644);
    const port = await freePort();
    nginx = await startNginx(
      `worker_processes 1;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  client_body_temp_path ${dir}/client_body_temp;
  proxy_temp_path ${dir}/proxy_temp;
  fastcgi_temp_path ${dir}/fastcgi_temp;
  uwsgi_temp_path ${dir}/uwsgi_temp;
  scgi_temp_path ${dir}/scgi_temp;
  default_type application/json;
  server { listen 127.0.0.1:${port}; root ${dir}; }
}
`,
      port,
    );
    const sidecarMBps: number[] = [];
    const nginxMBps: number[] = [];
    for (let i = 0; i < o.rounds; i++) {
      const a = await timed(`${o.url}${path}`);
      const b = await timed(`${nginx.url}/since.json`);
      if (a.status !== 200 || b.status !== 200) throw new Error(`since ${a.status}, nginx ${b.status}`);
      sidecarMBps.push(a.bytes / MB / (a.totalMs / 1000));
      nginxMBps.push(b.bytes / MB / (b.totalMs / 1000));
    }
    await nginx.stop();
    nginx = undefined;
    // Slow readers: each its own address, so the per-client cap on large answers does not refuse them.
    const w = watch(o.url, o.pid);
    await sleep(1500);
    const before = Math.min(...w.rss.map((s) => s.mb));
    const stop = new AbortController();
    const readers = Array.from({ length: o.readers }, async (_, i) => {
      const agent = new Agent({ connections: 1 });
      try {
        const res = await request(`${o.url}${path}`, {
          dispatcher: agent,
          signal: stop.signal,
          headers: { "X-Forwarded-For": `10.200.${i}.1` },
        });
        if (res.statusCode !== 200) throw new Error(`slow reader ${i}: HTTP ${res.statusCode}`);
        await readSlowly(res.body, SLOW_BYTES_PER_SECOND);
      } catch (e) {
        if (!isAbort(e)) throw e;
      } finally {
        await agent.destroy();
      }
    });
    await o.inside();
    const start = w.now();
    await sleep(o.slowS * 1000);
    const inside = await o.inside();
    stop.abort();
    await Promise.all(readers);
    const end = w.now();
    await sleep(3000);
    await w.stop();
    const during = w.probes.filter((p) => p.at >= start && p.at <= end).map((p) => p.ms);
    return {
      bytes,
      firstByteMs,
      sidecarMBps,
      nginxMBps,
      slow: {
        readers: o.readers,
        seconds: o.slowS,
        before,
        peak: Math.max(...w.rss.filter((s) => s.at >= start).map((s) => s.mb)),
        after: w.rss.at(-1)?.mb ?? Number.NaN,
        probeP99: percentile(during, 99),
        probeMax: Math.max(...during),
        loopP99: inside.p99_ms,
        loopMax: inside.max_ms,
      },
    };
  } finally {
    await nginx?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function sinceAloneReport(r: SinceAloneResult, h: { table: Table; fmt: Fmt }, median: (xs: number[]) => number) {
  const { fmt } = h;
  const ratios = r.sidecarMBps.map((x, i) => x / r.nginxMBps[i]);
  const ratio = median(ratios);
  const growth = r.slow.peak - r.slow.before;
  const met = (ok: boolean) => (ok ? "met" : "**missed**");
  // Each request streams from the index (nothing is kept between them), so the median of all ten is the aim's
  // figure; the slowest is shown beside it, as a shared machine's pauses land on single requests.
  const firstByte = median(r.firstByteMs);
  return [
    `## since/${OLDEST} alone (every review, ${fmt(r.bytes / MB, 1)} MB)`,
    "",
    `First byte: 10 requests one after another (the first on a sidecar just started: nothing of it computed before). Throughput: the whole answer, one request at a time, the sidecar and then nginx (\`sendfile on\`, one worker) sending a static file of the same size, ${r.sidecarMBps.length} rounds; the ratio within a round, then the median. Slow readers: ${r.slow.readers} at once at ${SLOW_BYTES_PER_SECOND / 1024} KiB/s, each its own address, for ${r.slow.seconds} s; RSS growth = highest sample during them - lowest before.`,
    "",
    h.table(
      ["aim", "measured", ""],
      [
        [
          "first byte <= 50 ms",
          `median ${fmt(firstByte)} ms of 10 (slowest ${fmt(Math.max(...r.firstByteMs))}, the first ${fmt(r.firstByteMs[0])})`,
          met(firstByte <= 50),
        ],
        [
          "throughput >= 0.5x nginx",
          `${fmt(ratio, 2)}x (sidecar ${fmt(median(r.sidecarMBps), 0)} MB/s, nginx ${fmt(median(r.nginxMBps), 0)} MB/s; rounds ${ratios.map((x) => fmt(x, 2)).join(", ")})`,
          met(ratio >= 0.5),
        ],
        [
          `RSS growth with ${r.slow.readers} slow readers <= 64 MB`,
          `${fmt(growth, 0)} MB (${fmt(r.slow.before, 0)} -> ${fmt(r.slow.peak, 0)} MB; ${fmt(r.slow.after, 0)} MB 3 s after; probe p99 ${fmt(r.slow.probeP99)} ms, max ${fmt(r.slow.probeMax)} ms; event-loop delay inside p99 ${fmt(r.slow.loopP99)} ms, max ${fmt(r.slow.loopMax)} ms)`,
          met(growth <= 64),
        ],
      ],
    ),
    "",
  ];
}
