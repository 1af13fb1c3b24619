// The health probe and RSS sampler of bench/lib/probe.ts's watch(), run as a process of its own, as a load
// balancer's health checker is: the bench's own process, which drives 100 connections and parses their answers,
// stalls for seconds under that load, and a probe timed inside it measured those stalls, not the sidecar's
// answer. Writes one JSON line per sample to stdout ({probe|rss, at: ms since the epoch, ...}); ends when its
// stdin closes. Usage: node bench/lib/watcher.ts URL PID PROBE_EVERY_MS RSS_EVERY_MS. Loopback only.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { probeEvery, rssOf } from "./probe.ts";

const [url, pid, everyMs, rssEveryMs] = process.argv.slice(2);
const now = () => performance.timeOrigin + performance.now();
const emit = (x: object) => process.stdout.write(`${JSON.stringify(x)}\n`);
// The watcher's own event-loop delay: were it large, its probes' latencies would include it.
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
let running = true;
process.stdin.resume();
process.stdin.once("end", () => {
  running = false;
});
const probing = probeEvery(
  url,
  Number(everyMs),
  () => running,
  (ms, ok) => emit({ probe: true, at: now(), ms, ok }),
);
const sampling = (async () => {
  while (running) {
    emit({ rss: true, at: now(), mb: await rssOf(Number(pid)) });
    await sleep(Number(rssEveryMs));
  }
})();
await Promise.all([probing, sampling]);
emit({ loop: true, p99_ms: loop.percentile(99) / 1e6, max_ms: loop.max / 1e6 });
