// What the mixed-load benchmarks watch while they load the sidecar: a health probe on its own connection at a
// fixed interval, and the sidecar's resident set size from /proc. Loopback only.
import { spawn } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";

/** Resident set size of `pid` in MB, from /proc/<pid>/status (Linux); NaN when the process is gone. */
export async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** GET `url` on one kept connection every `everyMs` while `running()`, reporting each answer's time and whether it was 200. */
export async function probeEvery(
  url: string,
  everyMs: number,
  running: () => boolean,
  report: (ms: number, ok: boolean) => void,
): Promise<void> {
  const agent = new Agent({ connections: 1 });
  while (running()) {
    const start = performance.now();
    let ok = false;
    try {
      const r = await request(url, { dispatcher: agent });
      await r.body.dump();
      ok = r.statusCode === 200;
    } catch {
      ok = false;
    }
    const ms = performance.now() - start;
    report(ms, ok);
    await sleep(Math.max(0, everyMs - ms));
  }
  await agent.close();
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
 * it is not hidden by a second one) and RSS every `rssEveryMs`, until stop() is called. Both run in a process of
 * their own (bench/lib/watcher.ts), as a health checker does: timed inside the bench, whose event loop also
 * drives the load, a probe measured the bench's own stalls. The same probe inside the bench (`benchProbes`) and
 * the bench's event-loop delay (`benchLoop`) are kept beside it, to show what that difference is.
 */
export function watch(url: string, pid: number, opts: { path?: string; everyMs?: number; rssEveryMs?: number } = {}) {
  const t0 = performance.timeOrigin + performance.now();
  const since = () => (performance.timeOrigin + performance.now() - t0) / 1000;
  const probes: ProbeSample[] = [];
  const rss: RssSample[] = [];
  const benchProbes: ProbeSample[] = [];
  const everyMs = opts.everyMs ?? 100;
  const target = `${url}${opts.path ?? "/healthz"}`;
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, "watcher.ts"), target, String(pid), String(everyMs), String(opts.rssEveryMs ?? 500)],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const watcherLoop = { p99_ms: Number.NaN, max_ms: Number.NaN };
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  lines.on("line", (line) => {
    const x = JSON.parse(line) as {
      probe?: true;
      rss?: true;
      loop?: true;
      at: number;
      ms: number;
      ok: boolean;
      mb: number;
      p99_ms: number;
      max_ms: number;
    };
    const at = (x.at - t0) / 1000;
    if (x.probe) probes.push({ at, ms: x.ms, ok: x.ok });
    else if (x.rss) rss.push({ at, mb: x.mb });
    else if (x.loop) Object.assign(watcherLoop, { p99_ms: x.p99_ms, max_ms: x.max_ms });
  });
  const exited = new Promise<void>((resolve) => lines.once("close", () => resolve()));
  const benchLoop = monitorEventLoopDelay({ resolution: 5 });
  benchLoop.enable();
  let running = true;
  const probing = probeEvery(
    target,
    everyMs,
    () => running,
    (ms, ok) => benchProbes.push({ at: since(), ms, ok }),
  );
  return {
    probes,
    rss,
    benchProbes,
    /** The bench's own event-loop delay (ms) since the last call, which starts it over. */
    benchLoop() {
      const r = { p99_ms: benchLoop.percentile(99) / 1e6, max_ms: benchLoop.max / 1e6 };
      benchLoop.reset();
      return r;
    },
    /** The watcher process's own event-loop delay over its whole run (known after stop()). */
    watcherLoop,
    now: since,
    async stop() {
      running = false;
      child.stdin?.end();
      await Promise.all([probing, exited]);
      benchLoop.disable();
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
  /** The longest stalls of the sidecar's event loop, with its main thread's time on a CPU and waiting for one. */
  stalls?: { at: string; ms: number; cpu_ms: number; wait_ms: number }[];
  /** process.memoryUsage() in MB at the call. */
  memory?: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
}

/**
 * The resident set of `pid` by kind, in MB (/proc/<pid>/smaps): anonymous (heap, malloc) and file-backed, and the
 * anonymous mappings that hold the most (with their size: glibc's arenas are 64 MB mappings, [heap] its main one).
 */
export async function residentParts(pid: number): Promise<{
  rss: number;
  anonymous: number;
  file: number;
  largest: { name: string; sizeMb: number; rssMb: number }[];
}> {
  const text = await readFile(`/proc/${pid}/smaps`, "utf8").catch(() => "");
  const maps: { name: string; sizeMb: number; rssMb: number; anonMb: number }[] = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const size = (Number.parseInt(head[2], 16) - Number.parseInt(head[1], 16)) / 2 ** 20;
      maps.push({ name: head[3] || "(anonymous)", sizeMb: size, rssMb: 0, anonMb: 0 });
      continue;
    }
    const field = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line);
    const m = maps.at(-1);
    if (field && m) {
      if (field[1] === "Rss") m.rssMb = Number(field[2]) / 1024;
      else m.anonMb = Number(field[2]) / 1024;
    }
  }
  const rss = maps.reduce((a, m) => a + m.rssMb, 0);
  const anonymous = maps.reduce((a, m) => a + m.anonMb, 0);
  const largest = maps
    .filter((m) => m.anonMb > 0)
    .sort((a, b) => b.anonMb - a.anonMb)
    .slice(0, 6)
    .map((m) => ({ name: m.name, sizeMb: m.sizeMb, rssMb: m.anonMb }));
  return { rss, anonymous, file: rss - anonymous, largest };
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
