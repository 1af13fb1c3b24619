// A hot reload under load: a steady probe of searches runs while a different build of the same size is
// deployed; measures the time to `build.switched`, the longest event-loop stall inside the sidecar
// (monitorEventLoopDelay, preloaded by bench/lib/loop-monitor.ts), the probes' p99 and the RSS before,
// during (peak) and after; then the same probes as long without a reload, for comparison.
// Usable alone: node bench/reload.ts DIST_DIR [NEXT_DIST_DIR]
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { until } from "../tests/helpers/callback-server.ts";
import { startSidecarProcess } from "../tests/helpers/sidecar-process.ts";
import { rssMb } from "./lib/rss.ts";

/** process.memoryUsage() inside the sidecar, in MB (bench/lib/loop-monitor.ts). */
export type MemoryUsageMb = Record<"rss" | "heapTotal" | "heapUsed" | "external" | "arrayBuffers", number>;

const MONITOR = fileURLToPath(new URL("./lib/loop-monitor.ts", import.meta.url));

export interface ReloadResult {
  reviewsJsonMb: number;
  startMs: number;
  rssMb: number;
  switchMs: number;
  stallMaxMs: number;
  /** The same probes for as long, without a reload: what the shared machine alone costs. */
  idleStallMaxMs: number;
  probes: number;
  probeP99Ms: number;
  probeMaxMs: number;
  idleProbeP99Ms: number;
  rssPeakMb: number;
  rssAfterMb: number;
  /** Inside the sidecar at steady state and after the reload: where the RSS goes. */
  memory: MemoryUsageMb;
  memoryAfter: MemoryUsageMb;
  /** The same after a full GC, when the sidecar runs with node --expose-gc (NODE_OPTIONS): what is still held. */
  afterGc?: MemoryUsageMb;
  afterGcAfter?: MemoryUsageMb;
  /** Inside the sidecar at its highest RSS during the reload (sampled every 20 ms). */
  memoryPeak: MemoryUsageMb;
}

const PROBES = ["rating=5", "query=great", "query=grinding", "since=2020-01-01&until=2020-03-31", "min_rating=2"];

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? Number.NaN;

/**
 * Serves a copy of `dist`, then deploys `next` (another build of the same size, e.g. after one changed review)
 * over it the way a build does, while probing.
 */
export async function reloadBench(dist: string, next: string, work: string, baseUrl: string): Promise<ReloadResult> {
  const served = join(work, "served");
  const loopFile = join(work, "loop.json");
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await cp(dist, served, { recursive: true });
  const t0 = Date.now();
  const sidecar = await startSidecarProcess({
    DIST_DIR: served,
    DATA_DIR: join(work, "data"),
    BASE_URL: baseUrl,
    LOG_LEVEL: "info",
    BENCH_LOOP_FILE: loopFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${MONITOR}`,
  });
  const startMs = Date.now() - t0;
  const pid = sidecar.child.pid;
  const loop = async () => {
    await rm(loopFile, { force: true });
    sidecar.child.kill("SIGUSR2");
    await until("loop stats", () => existsSync(loopFile), 10_000);
    return JSON.parse(await readFile(loopFile, "utf8")) as {
      max_ms: number;
      p99_ms: number;
      memory: MemoryUsageMb;
      afterGc?: MemoryUsageMb;
      peak: MemoryUsageMb;
    };
  };
  let peak = 0;
  const probeWhile = async <T>(during: () => Promise<T>) => {
    const latencies: number[] = [];
    let probing = true;
    const probe = (async () => {
      for (let i = 0; probing; i++) {
        const started = performance.now();
        const q = `${PROBES[i % PROBES.length]}&limit=${1 + (i % 20)}`;
        await (await fetch(`${sidecar.url}/api/reviews/search?${q}`)).arrayBuffer();
        latencies.push(performance.now() - started);
        peak = Math.max(peak, rssMb(pid));
      }
    })();
    const started = Date.now();
    await loop();
    const out = await during();
    probing = false;
    await probe;
    return { out, latencies, stall: await loop(), ms: Date.now() - started };
  };
  try {
    for (const q of [...PROBES, ""]) await (await fetch(`${sidecar.url}/api/reviews/search?${q}`)).arrayBuffer();
    await (await fetch(`${sidecar.url}/reviews.json`)).arrayBuffer();
    await new Promise((r) => setTimeout(r, 500));
    const rss = rssMb(pid);
    const { memory, afterGc } = await loop();
    peak = rss;

    // Copy first (as a build writes its temporary folder), then time from the swap.
    const staged = join(work, "staged");
    await cp(next, staged, { recursive: true });
    const reload = await probeWhile(async () => {
      await new Promise((r) => setTimeout(r, 300));
      await rename(served, join(work, "old"));
      await rename(staged, served);
      const written = Date.now();
      const switched = await until("hot reload", () => sidecar.logs.find((l) => l.event === "build.switched"), 120_000);
      await new Promise((r) => setTimeout(r, 300));
      return Number(switched.time) - written;
    });
    const rssPeak = peak;
    await new Promise((r) => setTimeout(r, 1000));
    const rssAfter = rssMb(pid);
    const { memory: memoryAfter, afterGc: afterGcAfter } = await loop();
    const idle = await probeWhile(() => new Promise((r) => setTimeout(r, reload.ms)));
    return {
      reviewsJsonMb: (await readFile(join(dist, "reviews.json"))).length / 1e6,
      startMs,
      rssMb: rss,
      switchMs: reload.out,
      stallMaxMs: reload.stall.max_ms,
      idleStallMaxMs: idle.stall.max_ms,
      probes: reload.latencies.length,
      probeP99Ms: p99(reload.latencies),
      probeMaxMs: Math.max(...reload.latencies),
      idleProbeP99Ms: p99(idle.latencies),
      rssPeakMb: rssPeak,
      rssAfterMb: rssAfter,
      memory,
      memoryAfter,
      afterGc,
      afterGcAfter,
      memoryPeak: reload.stall.peak,
    };
  } finally {
    await sidecar.stop();
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dist, next] = process.argv.slice(2);
  const result = await reloadBench(dist, next ?? dist, join(dist, "..", "bench-reload"), "http://localhost:4321");
  console.log(JSON.stringify(result, null, 1));
}
