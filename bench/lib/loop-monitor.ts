// Preloaded into the sidecar by the benchmarks (NODE_OPTIONS=--import): records event-loop delay with
// perf_hooks.monitorEventLoopDelay; on SIGUSR2 writes {max_ms, p99_ms, mean_ms} since the last SIGUSR2 and the
// process's memory (process.memoryUsage(): rss, heapTotal, heapUsed, external, arrayBuffers, in MB) to
// BENCH_LOOP_FILE and starts over; also the memory at the highest RSS seen (sampled every 20 ms) since the last
// SIGUSR2, to tell what a peak is made of; with node --expose-gc also the memory after a full GC (what is still
// referenced, for diagnosis). Not part of the service.
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

function memoryMb() {
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return {
    rss: mb(rss),
    heapTotal: mb(heapTotal),
    heapUsed: mb(heapUsed),
    external: mb(external),
    arrayBuffers: mb(arrayBuffers),
  };
}

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  let peak = memoryMb();
  setInterval(() => {
    const m = memoryMb();
    if (m.rss > peak.rss) peak = m;
  }, 20).unref();
  process.on("SIGUSR2", () => {
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    const memory = memoryMb();
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const afterGc = gc ? memoryMb() : undefined;
    const loop = { max_ms: ms(h.max), p99_ms: ms(h.percentile(99)), mean_ms: ms(h.mean) };
    writeFileSync(file, JSON.stringify({ ...loop, memory, afterGc, peak }));
    h.reset();
    peak = memoryMb();
  });
}
