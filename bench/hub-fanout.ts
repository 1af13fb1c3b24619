// The embedded hub (SQLite in DATA_DIR) end to end, HTTPS subscribers on loopback, all behind one callback host
// (an aggregator): N subscription requests verified (from the first request to the last subscription stored),
// then one change fanned out to them (from `build.switched` to the last delivery received), against plain undici
// POSTs of the same body to the same callbacks at the hub's starting per-host limit (8) and at its maximum (64).
// The sidecar's longest event-loop stall during the fan-out comes from bench/lib/loop-monitor.ts. With
// `slowDisk`, a child process writes and fsyncs a 64 MiB file beside DATA_DIR in a loop for the whole run.
// Called by bench/run.ts (fanout section); `node bench/hub-fanout.ts N… [--runs=R] [--slow-disk=N,…]
// [--cpu-prof=DIR]` prints the table alone (and with --cpu-prof leaves the sidecar's CPU profiles in DIR).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Agent, request } from "undici";
import { DELIVERY_CONCURRENCY_PER_HOST, DELIVERY_CONCURRENCY_PER_HOST_MAX } from "../sidecar/hub/hub-limits.ts";
import { CallbackServer, type Received, until } from "../tests/helpers/callback-server.ts";
import { hubRequest, subscriptions } from "../tests/helpers/hub-fixture.ts";
import { deploy, type SidecarProcess, startSidecarProcess } from "../tests/helpers/sidecar-process.ts";
import { makeTestPki, type TestPki } from "../tests/helpers/tls.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BASE = "http://localhost:4321";
const TOPIC = `${BASE}/api/feed.json`;
const MONITOR = fileURLToPath(new URL("./lib/loop-monitor.ts", import.meta.url));

export interface FanoutRow {
  subscribers: number;
  slowDisk: boolean;
  verifyMs: number;
  fanoutMs: number;
  stallMs: number;
  /** The event-loop delay's 99th percentile during the fan-out. */
  p99Ms: number;
  /** The most CPU time the main thread used within one of the longest stalls (the rest: waiting for a core). */
  stallCpuMs: number;
  baselineMs: number;
  baselineMaxMs: number;
  duplicates: number;
}

function build(contentDir: string, distDir: string) {
  const r = spawnSync(process.execPath, [join(ROOT, "scripts/build.ts")], {
    cwd: ROOT,
    env: { ...process.env, CONTENT_DIR: contentDir, DIST_DIR: distDir, BASE_URL: BASE, LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(r.stderr);
}

/** Two builds of the repository's content, the second with one review more: the change to fan out. */
export async function fanoutBuilds(work: string): Promise<[string, string]> {
  const variant = join(work, "fan-content-variant");
  await cp(join(ROOT, "content"), variant, { recursive: true, force: true });
  await writeFile(
    join(variant, "reviews/2026/zz-bench.json"),
    JSON.stringify({ rating: 5, date: "2026-11-21", text: "Bench variant.", author: "B. B.", verified: true }),
  );
  const a = join(work, "fan-a");
  const b = join(work, "fan-b");
  build(join(ROOT, "content"), a);
  build(variant, b);
  return [a, b];
}

/** A process that keeps the disk busy: writes 64 MiB and fsyncs it, over and over, until killed. */
export function slowDiskLoop(dir: string): ChildProcess {
  const file = join(dir, "slow-disk.bin");
  const script = `const fs=require("node:fs");const b=Buffer.alloc(1<<20,7);for(;;){const fd=fs.openSync(${JSON.stringify(file)},"w");for(let i=0;i<64;i++)fs.writeSync(fd,b);fs.fsyncSync(fd);fs.closeSync(fd);}`;
  return spawn(process.execPath, ["-e", script], { stdio: "ignore" });
}

/** Plain undici POSTs of `body` to every URL, `connections` at a time (and at most that many per host); milliseconds. */
export async function rawPosts(urls: string[], body: Buffer, pki: TestPki, connections: number) {
  const agent = new Agent({ connections, allowH2: false, connect: { ca: await readFile(pki.caFile) } });
  const t0 = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < urls.length) {
        const r = await request(urls[next++], {
          method: "POST",
          body,
          headers: { "Content-Type": "application/json" },
          dispatcher: agent,
        });
        await r.body.dump();
      }
    }),
  );
  const ms = Date.now() - t0;
  await agent.close();
  return ms;
}

/** Counts POSTs as they arrive, without scanning everything received at each poll. */
export function postCounter(cb: CallbackServer) {
  let seen = 0;
  const paths = new Set<string>();
  let posts = 0;
  let last = 0;
  const update = () => {
    const all: Received[] = cb.received;
    for (; seen < all.length; seen++) {
      const r = all[seen];
      if (r.method !== "POST") continue;
      posts++;
      paths.add(r.path);
      last = Math.max(last, r.at);
    }
  };
  return {
    get posts() {
      update();
      return posts;
    },
    get distinct() {
      update();
      return paths.size;
    },
    get lastAt() {
      update();
      return last;
    },
  };
}

export async function fanoutRun(
  n: number,
  opts: {
    work: string;
    dists: [string, string];
    pki: TestPki;
    slowDisk: boolean;
    log: (...a: unknown[]) => void;
    /** A folder for a CPU profile of the sidecar (node --cpu-prof), written when it stops. */
    cpuProf?: string;
  },
): Promise<FanoutRow> {
  const { work, pki, log } = opts;
  const tag = `${n}${opts.slowDisk ? "-slow" : ""}`;
  const served = join(work, `fan-served-${tag}`);
  const dataDir = join(work, `fan-data-${tag}`);
  const loopFile = join(work, `fan-loop-${tag}.json`);
  await rm(served, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
  await cp(opts.dists[0], served, { recursive: true });
  await mkdir(dataDir, { recursive: true });
  const hog = opts.slowDisk ? slowDiskLoop(dataDir) : undefined;
  const cb = await CallbackServer.start(pki);
  let sidecar: SidecarProcess | undefined;
  try {
    sidecar = await startSidecarProcess({
      DIST_DIR: served,
      DATA_DIR: dataDir,
      BASE_URL: BASE,
      NODE_EXTRA_CA_CERTS: pki.caFile,
      HUB_CALLBACK_ALLOWLIST: "127.0.0.0/8",
      HUB_RATE_LIMIT_PER_CLIENT: "1000000",
      HUB_RATE_LIMIT_PER_CALLBACK_HOST: "1000000",
      HUB_VERIFY_QUEUE_MAX: "1000000",
      HUB_VERIFY_QUEUE_MAX_PER_HOST: "1000000",
      LOG_LEVEL: "info",
      BENCH_LOOP_FILE: loopFile,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${MONITOR}${opts.cpuProf ? ` --cpu-prof --cpu-prof-dir=${opts.cpuProf}` : ""}`,
    });
    const s = sidecar;
    const stall = async () => {
      await rm(loopFile, { force: true });
      s.child.kill("SIGUSR2");
      await until("loop stats", () => existsSync(loopFile), 10_000);
      return JSON.parse(await readFile(loopFile, "utf8")) as {
        max_ms: number;
        p99_ms: number;
        stalls: { at: string; ms: number; cpu_ms: number; wait_ms: number }[];
      };
    };
    const paths = Array.from({ length: n }, (_, i) => `/f/${i}`);
    log(`hub fan-out: subscribing ${n}${opts.slowDisk ? " (slow disk)" : ""}`);
    const v0 = Date.now();
    // An aggregator's burst: 100 requests in flight at a time, each answered 202 once stored.
    for (let i = 0; i < n; i += 100) {
      await Promise.all(
        paths.slice(i, i + 100).map(async (p) => {
          const r = await hubRequest(s.url, { "hub.mode": "subscribe", "hub.topic": TOPIC, "hub.callback": cb.url(p) });
          if (r.status !== 202) throw new Error(`subscribe ${p}: ${r.status} ${r.text}`);
        }),
      );
    }
    await until(`${n} verified`, () => subscriptions(dataDir).length === n, 900_000);
    const verifyMs = Date.now() - v0;
    const posts = postCounter(cb);
    await stall();
    const deployedAt = Date.now();
    await deploy(opts.dists[1], served);
    const switchedAt = await until(
      "switch",
      () =>
        s.logs
          .filter((l) => l.event === "build.switched")
          .map((l) => Date.parse(String(l.time)))
          .find((t) => t >= deployedAt - 5),
      60_000,
    );
    await until(`${n} delivered`, () => posts.distinct >= n, 900_000);
    const fanoutMs = posts.lastAt - switchedAt;
    const loop = await stall();
    const stallMs = loop.max_ms;
    log(
      `hub fan-out ${tag}: switched ${new Date(switchedAt).toISOString()}, event-loop delay p99 ${loop.p99_ms} ms; longest stalls ${JSON.stringify(loop.stalls)}`,
    );
    const duplicates = posts.posts - posts.distinct;
    const body = await readFile(join(opts.dists[1], "api/feed.json"));
    const urls = paths.map((p) => cb.url(p));
    const baselineMs = await rawPosts(urls, body, pki, DELIVERY_CONCURRENCY_PER_HOST);
    const baselineMaxMs = await rawPosts(urls, body, pki, DELIVERY_CONCURRENCY_PER_HOST_MAX);
    log(`hub fan-out ${tag}: verified in ${verifyMs} ms, fan-out ${fanoutMs} ms, stall ${stallMs} ms`);
    return {
      subscribers: n,
      slowDisk: opts.slowDisk,
      verifyMs,
      fanoutMs,
      stallMs,
      p99Ms: loop.p99_ms,
      stallCpuMs: Math.max(0, ...loop.stalls.map((x) => x.cpu_ms)),
      baselineMs,
      baselineMaxMs,
      duplicates,
    };
  } finally {
    await sidecar?.stop();
    await cb.close();
    hog?.kill("SIGKILL");
    await rm(join(dataDir, "slow-disk.bin"), { force: true });
  }
}

export function fanoutReport(rows: FanoutRow[], fmt: (x: number, d?: number) => string): string[] {
  const head =
    "| subscribers | disk | run | verified (ms) | fan-out (ms) | baseline at 8 (ms) | baseline at 64 (ms) | ratio to 64 | ratio to 8 | longest stall (ms) | its CPU, most of any long stall (ms) | loop delay p99 (ms) | duplicates |";
  const seen = new Map<string, number>();
  const runOf = (r: FanoutRow) => {
    const key = `${r.subscribers}/${r.slowDisk}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    return seen.get(key);
  };
  const lines = rows.map(
    (r) =>
      `| ${r.subscribers} | ${r.slowDisk ? "slowed" : "as is"} | ${runOf(r)} | ${r.verifyMs} | ${r.fanoutMs} | ${r.baselineMs} | ${r.baselineMaxMs} | ${fmt(r.fanoutMs / r.baselineMaxMs, 2)}x | ${fmt(r.fanoutMs / r.baselineMs, 2)}x | ${r.stallMs} | ${r.stallCpuMs} | ${r.p99Ms} | ${r.duplicates} |`,
  );
  return [
    "## Hub, embedded store: verification burst and fan-out of one change (JSON Feed topic, HTTPS subscribers on loopback)",
    "",
    "All subscribers behind one callback host (an aggregator). Verified: from the first of N subscription requests (100 in flight at a time, each answered 202 once stored) to the last subscription stored. Fan-out: from `build.switched` to the last delivery received. Baselines: plain undici POSTs of the same body to the same callbacks, 8 at a time (the hub's starting per-host limit) and 64 at a time (the most the hub gives one host, which it reaches while the host answers fast). Longest stall: the sidecar's longest event-loop delay during the fan-out (monitorEventLoopDelay); its CPU: the most CPU time the main thread used within any of the ten longest stalls (the rest of a stall is time spent waiting for a core, /proc/thread-self/schedstat: on a shared machine, the machine's, not the sidecar's own work). Slowed disk: a process writing and fsyncing a 64 MiB file beside `DATA_DIR` in a loop for the whole run.",
    "",
    head,
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...lines,
    "",
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  const sizes = process.argv
    .slice(2)
    .filter((a) => /^\d+$/.test(a))
    .map(Number);
  const runs = Number(arg("runs") ?? 1);
  const cpuProf = arg("cpu-prof");
  const slow = arg("slow-disk")?.split(",").map(Number) ?? [];
  const work = join(ROOT, "bench/.work");
  await mkdir(work, { recursive: true });
  const log = (...a: unknown[]) => console.error("[bench]", ...a);
  const pki = await makeTestPki();
  const dists = await fanoutBuilds(work);
  const rows: FanoutRow[] = [];
  for (const n of sizes)
    for (let i = 0; i < runs; i++) rows.push(await fanoutRun(n, { work, dists, pki, slowDisk: false, log, cpuProf }));
  for (const n of slow)
    for (let i = 0; i < runs; i++) rows.push(await fanoutRun(n, { work, dists, pki, slowDisk: true, log, cpuProf }));
  console.log(fanoutReport(rows, (x, d = 1) => x.toFixed(d)).join("\n"));
}
