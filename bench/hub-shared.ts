// Hub fan-out with shared state: one and three sidecars on PostgreSQL deliver one change to N HTTPS subscribers
// on loopback, against a raw baseline (plain undici POSTs of the same body, 8 at a time), and the database
// transactions per delivery (pg_stat_database; the hub's statements are autocommit, one round trip each).
// Called by bench/run.ts; `node bench/hub-shared.ts [N]` runs only this part and prints the table.
import { spawnSync } from "node:child_process";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";
import { Agent, request } from "undici";
import { createPool } from "../sidecar/db/pool.ts";
import { openPgHubStore } from "../sidecar/hub/pg-hub-store.ts";
import { CallbackServer, until } from "../tests/helpers/callback-server.ts";
import { freePort } from "../tests/helpers/free-port.ts";
import { createTestDatabase } from "../tests/helpers/pg.ts";
import { deploy, type SidecarProcess, startSidecarProcess } from "../tests/helpers/sidecar-process.ts";
import { makeTestPki } from "../tests/helpers/tls.ts";

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

function build(contentDir: string, distDir: string) {
  const r = spawnSync(process.execPath, [join(ROOT, "scripts/build.ts")], {
    cwd: ROOT,
    env: { ...process.env, CONTENT_DIR: contentDir, DIST_DIR: distDir, BASE_URL: BASE, LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(r.stderr);
}

export async function sharedHubBench(opts: {
  work: string;
  sizes: number[];
  log: (...a: unknown[]) => void;
}): Promise<string[]> {
  const { work, log } = opts;
  const pki = await makeTestPki();
  const variant = join(work, "shared-content-variant");
  await cp(join(ROOT, "content"), variant, { recursive: true, force: true });
  await writeFile(
    join(variant, "reviews/2026/zz-shared-bench.json"),
    JSON.stringify({ rating: 5, date: "2026-11-21", text: "Shared bench variant.", author: "B. B.", verified: true }),
  );
  const distA = join(work, "shared-a");
  const distB = join(work, "shared-b");
  build(join(ROOT, "content"), distA);
  build(variant, distB);
  const body = await readFile(join(distB, "api/feed.json"));
  const rows: string[] = [];

  for (const n of opts.sizes) {
    const paths = Array.from({ length: n }, (_, i) => `/s/${i}`);
    for (const instances of [1, 3]) {
      const db = await createTestDatabase("bench");
      const served = join(work, `shared-served-${instances}`);
      await rm(served, { recursive: true, force: true });
      await cp(distA, served, { recursive: true });
      const cb = await CallbackServer.start(pki);
      const sidecars: SidecarProcess[] = [];
      try {
        // Subscriptions are imported directly: this measures fan-out, not verification.
        const pool = createPool(db.url, 4);
        const store = await openPgHubStore(pool);
        const now = Date.now();
        for (const p of paths) {
          await store.importSubscription(
            {
              topic: TOPIC,
              callback: cb.url(p),
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
              LOG_LEVEL: "warn",
            }),
          );
        }
        await new Promise((r) => setTimeout(r, 1500)); // startup work settles (topic records, first polls)
        const x0 = await xacts(db.url);
        const t0 = Date.now();
        await deploy(distB, served);
        const posts = () => cb.received.filter((r) => r.method === "POST");
        await until(`${n} delivered`, () => posts().length >= n, 900_000);
        const ms = Math.max(...posts().map((r) => r.at)) - t0;
        const perDelivery = ((await xacts(db.url)) - x0) / n;
        const dupes = posts().length - new Set(posts().map((r) => r.path)).size;
        log(`shared hub: ${instances} instance(s), ${n} subscribers: ${ms} ms, ${perDelivery.toFixed(2)} tx/delivery`);
        rows.push(`| ${n} | ${instances} | ${ms} | ${perDelivery.toFixed(2)} | ${dupes} |`);
      } finally {
        for (const s of sidecars) await s.stop();
        await cb.close();
        await db.drop();
      }
    }
    const agent = new Agent({ connections: 8, connect: { ca: await readFile(pki.caFile) } });
    const cb = await CallbackServer.start(pki);
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < n) {
          const r = await request(cb.url(paths[next++]), {
            method: "POST",
            body,
            headers: { "Content-Type": "application/json" },
            dispatcher: agent,
          });
          await r.body.dump();
        }
      }),
    );
    rows.push(`| ${n} | baseline (undici, 8 at a time) | ${Date.now() - t0} | - | - |`);
    await agent.close();
    await cb.close();
  }
  return [
    "## Hub fan-out with shared state (PostgreSQL, HTTPS subscribers on loopback)",
    "",
    "From the deploy of a new build to the last delivery received; the sidecars poll the manifest, so the time includes noticing the build. Transactions per delivery: pg_stat_database commits during the fan-out (claims, acknowledgements, polls of idle instances) divided by deliveries; every hub statement is autocommit, so this is the database round trips per delivery. Each instance sends at most 8 at a time to one callback host; all subscribers share one host here.",
    "",
    "| subscribers | instances | ms | db transactions per delivery | duplicates |",
    "|---|---|---|---|---|",
    ...rows,
    "",
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const n = Number(process.argv[2] ?? 10000);
  const work = join(ROOT, "bench/.work");
  await mkdir(work, { recursive: true });
  console.log((await sharedHubBench({ work, sizes: [n], log: (...a) => console.error("[bench]", ...a) })).join("\n"));
}
