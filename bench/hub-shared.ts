// Hub fan-out with shared state: one and three sidecars on PostgreSQL deliver one change to N HTTPS subscribers
// on loopback, with callbacks that answer at once and after 50 ms, against a raw baseline (plain undici POSTs of
// the same body), and the database transactions per delivery (pg_stat_database). The subscribers sit behind one
// callback host (an aggregator) or are spread over several (127.0.0.2, 127.0.0.3, …); each host is an HTTPS
// server in its own process (bench/lib/callback-hosts.ts), so the bench's own work does not starve its handshakes.
// Called by bench/run.ts; `node bench/hub-shared.ts [N] [RUNS] [--delays=0,50] [--instances=1,3] [--hosts=1,4]`
// runs only this part and prints the table.
import { cp, mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";
import { createPool } from "../sidecar/db/pool.ts";
import { DELIVERY_CONCURRENCY_PER_HOST, DELIVERY_CONCURRENCY_PER_HOST_MAX } from "../sidecar/hub/hub-limits.ts";
import { openPgHubStore } from "../sidecar/hub/pg-hub-store.ts";
import { until } from "../tests/helpers/callback-server.ts";
import { freePort } from "../tests/helpers/free-port.ts";
import { createTestDatabase } from "../tests/helpers/pg.ts";
import { deploy, type SidecarProcess, startSidecarProcess } from "../tests/helpers/sidecar-process.ts";
import { makeTestPki } from "../tests/helpers/tls.ts";
import { fanoutBuilds, rawPosts } from "./hub-fanout.ts";
import { CallbackHosts, loopbackHosts } from "./lib/callback-hosts.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BASE = "http://localhost:4321";
const TOPIC = `${BASE}/api/feed.json`;

async function xacts(url: string): Promise<number> {
  const c = new pg.Client(url);
  await c.connect();
  try {
    await c.query("SELECT pg_stat_clear_snapshot()");
    const { rows } = await c.query(
      "SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()",
    );
    return Number(rows[0].n);
  } finally {
    await c.end();
  }
}

export async function sharedHubBench(opts: {
  work: string;
  sizes: number[];
  log: (...a: unknown[]) => void;
  /** Each scenario this many times (the machine is shared: both runs are reported). */
  runs?: number;
  /** How long callbacks wait before answering (default 0 and 50 ms), and how many instances (default 1 and 3). */
  delaysMs?: number[];
  instances?: number[];
  /** Over how many callback hosts the subscribers are spread (default 1 and 4). */
  hosts?: number[];
}): Promise<string[]> {
  const { work, log } = opts;
  const hostCounts = opts.hosts ?? [1, 4];
  const pki = await makeTestPki({ ips: loopbackHosts(Math.max(...hostCounts)) });
  const [distA, distB] = await fanoutBuilds(work);
  const body = await readFile(join(distB, "api/feed.json"));
  const rows: string[] = [];

  for (const n of opts.sizes) {
    for (const hostCount of hostCounts) {
      const addresses = loopbackHosts(hostCount);
      for (let run = 1; run <= (opts.runs ?? 1); run++) {
        const ms = new Map<string, number>();
        for (const delayMs of opts.delaysMs ?? [0, 50]) {
          for (const instances of opts.instances ?? [1, 3]) {
            const db = await createTestDatabase("bench");
            const served = join(work, `shared-served-${instances}`);
            await rm(served, { recursive: true, force: true });
            await cp(distA, served, { recursive: true });
            const cb = await CallbackHosts.start(pki, addresses, delayMs);
            const sidecars: SidecarProcess[] = [];
            try {
              // Subscriptions are imported directly: this measures fan-out, not verification.
              const pool = createPool(db.url, 4);
              const store = await openPgHubStore(pool);
              const now = Date.now();
              for (let i = 0; i < n; i++) {
                await store.importSubscription(
                  {
                    topic: TOPIC,
                    callback: cb.url(i),
                    secret: null,
                    leaseSeconds: 86400,
                    expiresAt: now + 86_400_000,
                    failures: 0,
                    createdAt: now,
                  },
                  now,
                );
              }
              await pool.end();
              for (let i = 0; i < instances; i++) {
                sidecars.push(
                  await startSidecarProcess({
                    PORT: String(await freePort()),
                    DIST_DIR: served,
                    DATA_DIR: join(work, `shared-data-${i}`),
                    BASE_URL: BASE,
                    DATABASE_URL: db.url,
                    NODE_EXTRA_CA_CERTS: pki.caFile,
                    HUB_CALLBACK_ALLOWLIST: "127.0.0.0/8",
                    LOG_LEVEL: "info",
                  }),
                );
              }
              // Every instance has recorded the served build's topics (the first record enqueues nothing).
              await until("topics recorded", async () => {
                const c = new pg.Client(db.url);
                await c.connect();
                try {
                  return (await c.query("SELECT 1 FROM hub_topic_state")).rowCount === 3;
                } finally {
                  await c.end();
                }
              });
              const x0 = await xacts(db.url);
              const deployedAt = Date.now();
              await deploy(distB, served);
              const got = await until(
                `${n} delivered`,
                async () => {
                  const st = await cb.stats();
                  return st.distinct >= n && st;
                },
                900_000,
              );
              const switched = sidecars.flatMap((s) =>
                s.logs
                  .filter((l) => l.event === "build.switched")
                  .map((l) => Date.parse(String(l.time)))
                  .filter((t) => t >= deployedAt - 5),
              );
              const took = got.lastAt - Math.min(...switched);
              ms.set(`${delayMs}/${instances}`, took);
              const perDelivery = ((await xacts(db.url)) - x0) / n;
              const dupes = got.posts - got.distinct;
              // A failed attempt waits HUB_RETRY_DELAYS_MS (a minute) for its retry: say why, since it sets the time.
              const failures = sidecars.flatMap((s) =>
                s.logs.filter((l) => l.event === "hub.deliver" && l.outcome !== "delivered" && l.outcome !== undefined),
              );
              if (failures.length)
                log(
                  `shared hub: ${failures.length} failed attempts: ${JSON.stringify(failures.slice(0, 5).map((l) => [l.status, l.err, l.outcome, l.time]))}`,
                );
              log(
                `shared hub: ${instances} instance(s), ${n} subscribers on ${hostCount} host(s), callbacks +${delayMs} ms: ${took} ms, ${failures.length} failed attempts`,
              );
              rows.push(
                `| ${n} | ${hostCount} | ${delayMs} ms | ${instances} | ${run} | ${took} | ${perDelivery.toFixed(2)} | ${dupes} | ${failures.length} |`,
              );
            } finally {
              for (const s of sidecars) await s.stop();
              await cb.close();
              await db.drop();
            }
          }
        }
        // The baseline against the same callback hosts (own processes, same addresses) as the hub's runs.
        const cb = await CallbackHosts.start(pki, addresses, 0);
        let at8: number;
        let at64: number;
        try {
          const urls = Array.from({ length: n }, (_, i) => cb.url(i));
          at8 = await rawPosts(urls, body, pki, DELIVERY_CONCURRENCY_PER_HOST);
          at64 = await rawPosts(urls, body, pki, DELIVERY_CONCURRENCY_PER_HOST_MAX);
        } finally {
          await cb.close();
        }
        const r = (a: string, b: number | undefined) => {
          const x = ms.get(a);
          return x === undefined || b === undefined ? "-" : `${(x / b).toFixed(2)}x`;
        };
        rows.push(`| ${n} | ${hostCount} | 0 ms | baseline (undici, 8 at a time) | ${run} | ${at8} | - | - | - |`);
        rows.push(`| ${n} | ${hostCount} | 0 ms | baseline (undici, 64 at a time) | ${run} | ${at64} | - | - | - |`);
        rows.push(
          `| ${n} | ${hostCount} | | ratios, run ${run} | | one instance / baseline at 64: ${r("0/1", at64)}; three / one with 50 ms callbacks: ${r("50/3", ms.get("50/1"))} | | | |`,
        );
      }
    }
  }
  return [
    "## Hub fan-out with shared state (PostgreSQL, HTTPS subscribers on loopback)",
    "",
    "From the first instance's `build.switched` to the last delivery received. Callbacks answer at once, or after 50 ms. Callback hosts: the subscribers spread over this many loopback addresses (127.0.0.2, …), each an HTTPS server in its own process; 1 = all behind one aggregator. Transactions per delivery: pg_stat_database commits during the fan-out (claims, batched acknowledgements, polls of idle instances) divided by deliveries. Each instance starts at 8 requests at once to a host and raises that to 64 while it answers within a second without errors. Failed attempts: deliveries that did not get a 2xx (each waits HUB_RETRY_DELAYS_MS for its retry). Baselines: plain undici POSTs of the same body to the same callback hosts, 8 and 64 at a time in all.",
    "",
    "| subscribers | callback hosts | callbacks answer after | instances | run | ms | db transactions per delivery | duplicates | failed attempts |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const n = Number(process.argv[2] ?? 10000);
  const list = (name: string) =>
    process.argv
      .find((a) => a.startsWith(`--${name}=`))
      ?.split("=")[1]
      .split(",")
      .map(Number);
  const work = join(ROOT, "bench/.work");
  await mkdir(work, { recursive: true });
  console.log(
    (
      await sharedHubBench({
        work,
        sizes: [n],
        runs: Number(process.argv[3] ?? 1),
        delaysMs: list("delays"),
        instances: list("instances"),
        hosts: list("hosts"),
        log: (...a) => console.error("[bench]", ...a),
      })
    ).join("\n"),
  );
}
