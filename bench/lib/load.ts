// One load measurement with autocannon (a real load generator) against a URL on loopback.
import autocannon from "autocannon";
import { cpuTimes, ownCpuSeconds } from "./cpu.ts";

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU microseconds per answered request of the server processes named in `serverPids` (NaN without them). */
  serverUs: number;
  /** The part of serverUs spent in the kernel (system time: mostly the socket send and receive paths). */
  serverSystemUs: number;
  /** CPU microseconds per answered request of this process: the load generator's cost. */
  clientUs: number;
}

export async function load(opts: {
  url: string;
  durationS: number;
  connections?: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Processes whose CPU time is the server's (the sidecar; nginx's worker). */
  serverPids?: number[];
}): Promise<LoadResult> {
  const pids = opts.serverPids ?? [];
  const serverCpu = () => {
    let user = pids.length ? 0 : Number.NaN;
    let system = user;
    for (const pid of pids) {
      const t = cpuTimes(pid);
      user += t.user;
      system += t.system;
    }
    return { user, system };
  };
  const server0 = serverCpu();
  const client0 = ownCpuSeconds();
  const r = await autocannon({
    url: opts.url,
    method: opts.method ?? "GET",
    headers: opts.headers,
    body: opts.body,
    connections: opts.connections ?? 16,
    duration: opts.durationS,
  });
  const server1 = serverCpu();
  const answered = r.requests.total;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    serverUs: ((server1.user + server1.system - server0.user - server0.system) * 1e6) / answered,
    serverSystemUs: ((server1.system - server0.system) * 1e6) / answered,
    clientUs: ((ownCpuSeconds() - client0) * 1e6) / answered,
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Median of each field over several runs. */
export function medianOf(runs: LoadResult[]): LoadResult {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    non2xx: Math.max(...runs.map((r) => r.non2xx)),
    errors: Math.max(...runs.map((r) => r.errors)),
    serverUs: median(runs.map((r) => r.serverUs)),
    serverSystemUs: median(runs.map((r) => r.serverSystemUs)),
    clientUs: median(runs.map((r) => r.clientUs)),
  };
}

export type LoadTarget = Omit<Parameters<typeof load>[0], "durationS">;

/**
 * Several targets measured in turns: each round loads every target once, one after the other, so on a shared,
 * loaded machine each pair of neighbouring slices sees about the same load, and each target's ratio to
 * `reference` is taken within a round, then the median over the rounds (like with like; measuring one target
 * for all its runs, then the next, compared minutes apart).
 */
export async function measureRounds<K extends string>(
  targets: Record<K, LoadTarget>,
  reference: NoInfer<K>,
  rounds: number,
  durationS: number,
): Promise<Record<K, LoadResult & { ratio: number }>> {
  const keys = Object.keys(targets) as K[];
  const runs = Object.fromEntries(keys.map((k) => [k, [] as LoadResult[]])) as Record<K, LoadResult[]>;
  for (let i = 0; i < rounds; i++) for (const k of keys) runs[k].push(await load({ ...targets[k], durationS }));
  return Object.fromEntries(
    keys.map((k) => [
      k,
      { ...medianOf(runs[k]), ratio: median(runs[k].map((r, i) => r.rps / runs[reference][i].rps)) },
    ]),
  ) as Record<K, LoadResult & { ratio: number }>;
}
