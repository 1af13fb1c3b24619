// Preloaded into the sidecar by the benchmarks (NODE_OPTIONS=--import): records event-loop delay with
// perf_hooks.monitorEventLoopDelay; on SIGUSR2 writes {max_ms, p99_ms, mean_ms} since the last SIGUSR2 to
// BENCH_LOOP_FILE and starts over. Not part of the service.
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  process.on("SIGUSR2", () => {
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    writeFileSync(file, JSON.stringify({ max_ms: ms(h.max), p99_ms: ms(h.percentile(99)), mean_ms: ms(h.mean) }));
    h.reset();
  });
}
