// What the mixed-load benchmarks watch while they load the sidecar: a health probe on its own connection at a
// fixed interval, and the sidecar's resident set size from /proc. Loopback only.
import { readFile, rm } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";

/** Resident set size of `pid` in MB, from /proc/<pid>/status (Linux); NaN when the process is gone. */
export async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

export interface ProbeSample {
  /** Seconds since the watch began. */
  at: number;
  ms: number;
  ok: boolean;
}

export interface RssSample {
  at: number;
  mb: number;
}

/**
 * GET `path` every `everyMs` (one at a time on one kept-alive connection: a slow answer delays the next probe,
 * it is not hidden by a second one) and RSS every `rssEveryMs`, until stop() is called.
 */
export function watch(url: string, pid: number, opts: { path?: string; everyMs?: number; rssEveryMs?: number } = {}) {
  const t0 = performance.now();
  const since = () => (performance.now() - t0) / 1000;
  const probes: ProbeSample[] = [];
  const rss: RssSample[] = [];
  const agent = new Agent({ connections: 1 });
  let running = true;
  const probing = (async () => {
    while (running) {
      const start = performance.now();
      let ok = false;
      try {
        const r = await request(`${url}${opts.path ?? "/healthz"}`, { dispatcher: agent });
        await r.body.dump();
        ok = r.statusCode === 200;
      } catch {
        ok = false;
      }
      const ms = performance.now() - start;
      probes.push({ at: since(), ms, ok });
      await sleep(Math.max(0, (opts.everyMs ?? 100) - ms));
    }
  })();
  const sampling = (async () => {
    while (running) {
      rss.push({ at: since(), mb: await rssOf(pid) });
      await sleep(opts.rssEveryMs ?? 500);
    }
  })();
  return {
    probes,
    rss,
    now: since,
    async stop() {
      running = false;
      await Promise.all([probing, sampling]);
      await agent.close();
    },
  };
}

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/** Reads a response body no faster than `bytesPerSecond` (the socket fills and the server must wait). */
export async function readSlowly(
  body: AsyncIterable<Buffer>,
  bytesPerSecond: number,
  onBytes: (n: number) => void = () => undefined,
): Promise<number> {
  const start = performance.now();
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    onBytes(chunk.length);
    const due = (read / bytesPerSecond) * 1000 - (performance.now() - start);
    if (due > 0) await sleep(due);
  }
  return read;
}

export interface InsideStats {
  /** Event-loop delay inside the sidecar since the last call (bench/lib/loop-monitor.ts). */
  max_ms: number;
  p99_ms: number;
  /** process.memoryUsage() in MB when RSS was highest since the last call. */
  peak: { rss: number; heapUsed: number; external: number; arrayBuffers: number };
}

/**
 * The sidecar's own view, from bench/lib/loop-monitor.ts preloaded into it with BENCH_LOOP_FILE=`file`: what it
 * recorded since the previous call (which starts it over).
 */
export function insideStats(pid: number, file: string): () => Promise<InsideStats> {
  return async () => {
    await rm(file, { force: true });
    process.kill(pid, "SIGUSR2");
    const deadline = Date.now() + 10_000;
    for (;;) {
      const text = await readFile(file, "utf8").catch(() => "");
      if (text) return JSON.parse(text) as InsideStats;
      if (Date.now() > deadline) throw new Error("the sidecar wrote no loop statistics (loop-monitor preloaded?)");
      await sleep(50);
    }
  };
}
