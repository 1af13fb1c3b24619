// A hot reload under load: a steady probe of searches runs while a different build of the same size is
// deployed; measures the time to `build.switched`, the longest event-loop stall inside the sidecar
// (monitorEventLoopDelay, preloaded by bench/lib/loop-monitor.ts), the probes' p99 and the RSS before,
// during (peak) and after. Usable alone: node bench/reload.ts DIST_DIR
import { existsSync, readFileSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { until } from "../tests/helpers/callback-server.ts";
import { startSidecarProcess } from "../tests/helpers/sidecar-process.ts";

const MONITOR = fileURLToPath(new URL("./lib/loop-monitor.ts", import.meta.url));

export interface ReloadResult {
  reviewsJsonMb: number;
  startMs: number;
  rssMb: number;
  switchMs: number;
  stallMaxMs: number;
  stallP99Ms: number;
  probes: number;
  probeP99Ms: number;
  probeMaxMs: number;
  rssPeakMb: number;
  rssAfterMb: number;
}

export function rssMb(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

const PROBES = ["rating=5", "query=great", "query=grinding", "since=2020-01-01&until=2020-03-31", "min_rating=2"];

export async function reloadBench(dist: string, dataDir: string, baseUrl: string): Promise<ReloadResult> {
  const loopFile = `${dataDir}-loop.json`;
  const t0 = Date.now();
  const sidecar = await startSidecarProcess({
    DIST_DIR: dist,
    DATA_DIR: dataDir,
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
    return JSON.parse(await readFile(loopFile, "utf8")) as { max_ms: number; p99_ms: number };
  };
  try {
    for (const q of [...PROBES, ""]) await (await fetch(`${sidecar.url}/api/reviews/search?${q}`)).arrayBuffer();
    await (await fetch(`${sidecar.url}/reviews.json`)).arrayBuffer();
    await new Promise((r) => setTimeout(r, 500));
    const rss = rssMb(pid);
    await loop();

    const latencies: number[] = [];
    let peak = rss;
    let probing = true;
    const probe = (async () => {
      for (let i = 0; probing; i++) {
        const started = performance.now();
        await (
          await fetch(`${sidecar.url}/api/reviews/search?${PROBES[i % PROBES.length]}&limit=${1 + (i % 20)}`)
        ).arrayBuffer();
        latencies.push(performance.now() - started);
        peak = Math.max(peak, rssMb(pid));
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const manifestPath = join(dist, ".build-manifest.json");
    const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
    const original = manifest.build_id;
    manifest.build_id = `${original.slice(0, 24)}reload00`;
    const written = Date.now();
    await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
    const switched = await until("hot reload", () => sidecar.logs.find((l) => l.event === "build.switched"), 120_000);
    await new Promise((r) => setTimeout(r, 300));
    probing = false;
    await probe;
    const stall = await loop();
    manifest.build_id = original;
    await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    await until("second switch", () => sidecar.logs.filter((l) => l.event === "build.switched").length >= 2, 120_000);
    await new Promise((r) => setTimeout(r, 1000));
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      reviewsJsonMb: (await readFile(join(dist, "reviews.json"))).length / 1e6,
      startMs,
      rssMb: rss,
      switchMs: Number(switched.time) - written,
      stallMaxMs: stall.max_ms,
      stallP99Ms: stall.p99_ms,
      probes: sorted.length,
      probeP99Ms: sorted[Math.floor(sorted.length * 0.99)] ?? Number.NaN,
      probeMaxMs: sorted.at(-1) ?? Number.NaN,
      rssPeakMb: peak,
      rssAfterMb: rssMb(pid),
    };
  } finally {
    await sidecar.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = process.argv[2];
  console.log(
    JSON.stringify(await reloadBench(dist, join(dist, "..", "bench-reload-data"), "http://localhost:4321"), null, 1),
  );
}
