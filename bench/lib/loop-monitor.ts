// Preloaded into the sidecar by the benchmarks (NODE_OPTIONS=--import): records event-loop delay with
// perf_hooks.monitorEventLoopDelay; on SIGUSR2 writes {max_ms, p99_ms, mean_ms} since the last SIGUSR2 and the
// process's memory (process.memoryUsage(): rss, heapTotal, heapUsed, external, arrayBuffers, in MB) to
// BENCH_LOOP_FILE and starts over; also the memory at the highest RSS seen (sampled every 20 ms) since the last
// SIGUSR2, to tell what a peak is made of; with BENCH_LOOP_GC=1 (and node --expose-gc) also the memory after a
// full GC (what is still referenced, for diagnosis: not by default, since the start scripts expose gc and a
// collection forced by the bench would free memory the sidecar is measured on giving back itself). Also the longest stalls seen by a 5 ms ticker (`stalls`: when, how long, how much of
// it the main thread ran on a CPU and how much it waited in the run queue for one, from /proc/thread-self/schedstat):
// on a shared machine a stall with little CPU time and a long wait is the machine's, not the sidecar's own work.
// Not part of the service.
import { readFileSync, writeFileSync } from "node:fs";
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
  // The ticker's own gaps: a gap is the time since the previous tick, less the tick's interval.
  const TICK_MS = 5;
  type Stall = { at: string; ms: number; cpu_ms: number; wait_ms: number };
  let stalls: Stall[] = [];
  /** [on a CPU, waiting for one] in nanoseconds, for this thread. */
  const sched = () => readFileSync("/proc/thread-self/schedstat", "utf8").split(" ").slice(0, 2).map(Number);
  const round = (x: number) => Math.round(x * 10) / 10;
  let lastAt = performance.now();
  let last = sched();
  setInterval(() => {
    const now = performance.now();
    const s = sched();
    const ms = now - lastAt - TICK_MS;
    if (ms >= 20) {
      const [cpu, wait] = [(s[0] - last[0]) / 1e6, (s[1] - last[1]) / 1e6];
      stalls.push({ at: new Date().toISOString(), ms: round(ms), cpu_ms: round(cpu), wait_ms: round(wait) });
      stalls = stalls.sort((a, b) => b.ms - a.ms).slice(0, 10);
    }
    lastAt = now;
    last = s;
  }, TICK_MS).unref();
  process.on("SIGUSR2", () => {
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    const memory = memoryMb();
    const gc = process.env.BENCH_LOOP_GC === "1" ? (globalThis as { gc?: () => void }).gc : undefined;
    gc?.();
    const afterGc = gc ? memoryMb() : undefined;
    const loop = { max_ms: ms(h.max), p99_ms: ms(h.percentile(99)), mean_ms: ms(h.mean) };
    writeFileSync(file, JSON.stringify({ ...loop, memory, afterGc, peak, stalls }));
    h.reset();
    stalls = [];
    peak = memoryMb();
  });
}
