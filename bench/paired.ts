// This code against a checkout of other code (the previous sidecar) on the same build: search and since
// latency under many concurrent clients, the two sidecars loaded in alternating turns so that both see the same
// shared machine. Called from bench/run.ts with --old=<checkout>. Loopback only.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../tests/helpers/free-port.ts";
import { type LoadResult, load, median } from "./lib/load.ts";

interface Running {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `root`'s sidecar (sidecar/server.ts, as its `npm run serve` runs it) on `dist`, ready when it serves a HEAD. */
async function startAt(root: string, env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  let stderr = "";
  const child = spawn(process.execPath, ["--max-semi-space-size=16", join(root, "sidecar/server.ts")], {
    cwd: root,
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.on("data", (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGTERM");
    });
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`sidecar of ${root} exited with ${child.exitCode}: ${stderr}`);
    const ok = await fetch(`${url}/reviews.json`, { method: "HEAD" }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`sidecar of ${root} did not answer on ${url}: ${stderr}`);
    }
    await sleep(200);
  }
}

/** The requests compared: present in both versions with the same meaning (SPEC.md). */
const TARGETS: [string, string][] = [
  ["search, no filter", "/api/reviews/search"],
  ["search, common word", "/api/reviews/search?query=great"],
  ["search, rare word", "/api/reviews/search?query=grinding"],
  ["since 2026-10-15, whole", "/api/reviews/since/2026-10-15"],
];

export interface PairedRow {
  name: string;
  bytes: number;
  current: LoadResult[];
  old: LoadResult[];
}

export async function pairedBench(o: {
  root: string;
  oldRoot: string;
  dist: string;
  baseUrl: string;
  rounds: number;
  durationS: number;
  connections: number;
  log: (...a: unknown[]) => void;
}): Promise<PairedRow[]> {
  const data = await mkdtemp(join(tmpdir(), "bench-paired-"));
  const servers: Running[] = [];
  try {
    const env = (name: string) => ({ DIST_DIR: o.dist, DATA_DIR: join(data, name), BASE_URL: o.baseUrl });
    const current = await startAt(o.root, env("current"));
    servers.push(current);
    const old = await startAt(o.oldRoot, env("old"));
    servers.push(old);
    const rows: PairedRow[] = [];
    for (const [name, path] of TARGETS) {
      const a = await fetch(`${current.url}${path}`);
      const b = await fetch(`${old.url}${path}`);
      const bytes = (await a.arrayBuffer()).byteLength;
      const oldBytes = (await b.arrayBuffer()).byteLength;
      if (a.status !== 200 || b.status !== 200 || bytes !== oldBytes)
        throw new Error(`${path}: current ${a.status} ${bytes} bytes, old ${b.status} ${oldBytes} bytes`);
      rows.push({ name, bytes, current: [], old: [] });
    }
    const target = (url: string, path: string) => ({
      url: `${url}${path}`,
      connections: o.connections,
      serverPids: [],
    });
    o.log("paired: warm-up");
    for (const [, path] of TARGETS)
      for (const s of [current, old]) await load({ ...target(s.url, path), durationS: 1 });
    for (let round = 0; round < o.rounds; round++) {
      o.log(`paired: round ${round + 1} of ${o.rounds}`);
      for (const [i, [, path]] of TARGETS.entries()) {
        // Which goes first alternates, so neither always follows the other's load.
        const order = round % 2 ? (["old", "current"] as const) : (["current", "old"] as const);
        for (const which of order) {
          const s = which === "old" ? old : current;
          rows[i][which].push(await load({ ...target(s.url, path), durationS: o.durationS }));
        }
      }
    }
    return rows;
  } finally {
    for (const s of servers) await s.stop();
    await rm(data, { recursive: true, force: true });
  }
}

type Table = (head: string[], rows: (string | number)[][]) => string;
type Fmt = (x: number, d?: number) => string;

export function pairedReport(
  rows: PairedRow[],
  o: { oldCommit: string; rounds: number; durationS: number; connections: number; reviews: number },
  h: { table: Table; fmt: Fmt },
): string[] {
  const { fmt } = h;
  const ratio = (r: PairedRow, f: (x: LoadResult) => number) => median(r.current.map((x, i) => f(x) / f(r.old[i])));
  const met = (ok: boolean) => (ok ? "met" : "**missed**");
  return [
    `## Search and since against the previous sidecar (${o.oldCommit}) at ${o.reviews} reviews, ${o.connections} concurrent clients`,
    "",
    `Both sidecars run on the same build at once (the previous one from its own checkout); in each of ${o.rounds} rounds autocannon loads every request for ${o.durationS} s on one and then the other, which going first alternating. p99 as autocannon reports it (whole milliseconds); the ratio is taken within a round, then the median; the per-round ratios are listed. Aim: p99 within 1.2x of the previous code.`,
    "",
    h.table(
      [
        "request",
        "body bytes",
        "p99 ms now / before",
        "p99 ratio (rounds)",
        "p50 ms now / before",
        "req/s now / before",
        "errors now / before",
        "",
      ],
      rows.map((r) => {
        const p99 = ratio(r, (x) => Math.max(x.p99, 1));
        const each = r.current.map((x, i) => fmt(Math.max(x.p99, 1) / Math.max(r.old[i].p99, 1), 2)).join(", ");
        const both = (f: (x: LoadResult) => number) =>
          `${fmt(median(r.current.map(f)), 0)} / ${fmt(median(r.old.map(f)), 0)}`;
        const errors = (xs: LoadResult[]) => Math.max(...xs.map((x) => x.non2xx + x.errors));
        return [
          r.name,
          r.bytes,
          both((x) => x.p99),
          `${fmt(p99, 2)}x (${each})`,
          both((x) => x.p50),
          both((x) => x.rps),
          `${errors(r.current)} / ${errors(r.old)}`,
          met(p99 <= 1.2),
        ];
      }),
    ),
    "",
  ];
}
