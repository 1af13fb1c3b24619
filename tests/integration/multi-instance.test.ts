// Three sidecars on one PostgreSQL and one DIST_DIR behind a real nginx (examples/nginx-multi-instance.conf).
// Subscribers are real HTTPS servers on loopback. One change notifies each subscriber exactly once; a SIGKILLed
// instance's deliveries are taken over; a rolling restart under load fails no request.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { DELIVERY_CONCURRENCY_PER_HOST_MAX } from "../../sidecar/hub/hub-limits.ts";
import { CallbackServer, until } from "../helpers/callback-server.ts";
import { freePort } from "../helpers/free-port.ts";
import { buildVariants, freshDist, hubEnv, hubRequest, TOPICS } from "../helpers/hub-fixture.ts";
import { type RunningNginx, startNginx } from "../helpers/nginx-process.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/pg.ts";
import { deploy, type SidecarProcess, startSidecarProcess } from "../helpers/sidecar-process.ts";
import { makeTestPki } from "../helpers/tls.ts";

const pki = await makeTestPki();
let variants: string[];
let db: TestDatabase;
let dist: string;
let cb: CallbackServer;
let nginx: RunningNginx;
const ports: number[] = [];
const sidecars: SidecarProcess[] = [];
const dataDirs: string[] = [];

const startInstance = async (i: number) => {
  sidecars[i] = await startSidecarProcess(
    hubEnv(
      { dist, dataDir: dataDirs[i], caFile: pki.caFile },
      {
        PORT: String(ports[i]),
        DATABASE_URL: db.url,
        TRUST_PROXY: "loopback",
        HUB_RETRY_DELAYS_MS: "500,500",
        // Three instances raise their per-host limits against the one callback server in this process; on a busy
        // machine its answers can take seconds, and a request with no answer costs a retry seconds later.
        HUB_TIMEOUT_MS: "10000",
        LOG_LEVEL: "warn",
      },
    ),
  );
};

const count = async (sql: string): Promise<number> => {
  const c = new pg.Client(db.url);
  await c.connect();
  try {
    return Number((await c.query(sql)).rows[0].n);
  } finally {
    await c.end();
  }
};

const feedBytes = async () =>
  Buffer.from(
    await (await fetch(`${nginx.url}/feed.xml`, { headers: { "Accept-Encoding": "identity" } })).arrayBuffer(),
  );

const through = Array.from({ length: 200 }, (_, i) => `/lb/${i}`);
const everywhere = Array.from({ length: 20 }, (_, i) => `/all/${i}`);
const all = [...through, ...everywhere];

before(async () => {
  variants = await buildVariants();
  db = await createTestDatabase("multi");
  dist = await freshDist(variants[0]);
  cb = await CallbackServer.start(pki);
  for (let i = 0; i < 3; i++) {
    ports.push(await freePort());
    dataDirs.push(join(await tempDir(`multi${i}`), "data"));
  }
  await Promise.all([0, 1, 2].map(startInstance));
  const lbPort = await freePort();
  let config = await readFile(join(ROOT, "examples/nginx-multi-instance.conf"), "utf8");
  config = config
    .replace("listen 8080;", `listen 127.0.0.1:${lbPort};`)
    .replace(/access_log [^;]+;/, "access_log off;")
    // One pass: a free port may itself begin with 4322 or 4323.
    .replace(/server 127\.0\.0\.1:432([123])\b/g, (_, n: string) => `server 127.0.0.1:${ports[Number(n) - 1]}`);
  nginx = await startNginx(config, lbPort);
});

after(async () => {
  await nginx?.stop();
  for (const s of sidecars) await s?.stop();
  await cb?.close();
  await db?.drop();
});

test("200 subscribers through nginx and 20 on every instance: 220 subscriptions, each notified once per change", async () => {
  for (let i = 0; i < through.length; i += 50) {
    const answers = await Promise.all(
      through
        .slice(i, i + 50)
        .map((p) =>
          hubRequest(nginx.url, { "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": cb.url(p) }),
        ),
    );
    assert.ok(
      answers.every((a) => a.status === 202),
      JSON.stringify(answers.find((a) => a.status !== 202)),
    );
  }
  for (const s of sidecars) {
    for (const p of everywhere) {
      const a = await hubRequest(s.url, {
        "hub.mode": "subscribe",
        "hub.topic": TOPICS.atom,
        "hub.callback": cb.url(p),
      });
      assert.equal(a.status, 202);
    }
  }
  await until("220 verified", async () => (await count("SELECT COUNT(*) AS n FROM hub_subscriptions")) === 220, 60_000);
  await until(
    "no verification pending",
    async () => (await count("SELECT COUNT(*) AS n FROM hub_verifications")) === 0,
    30_000,
  );

  await deploy(variants[1], dist);
  await until("every subscriber notified", () => all.every((p) => cb.posts(p).length >= 1), 60_000);
  await new Promise((r) => setTimeout(r, 2_000)); // time for a duplicate to show up, if there were one
  const expected = await feedBytes();
  for (const p of all) {
    assert.equal(cb.posts(p).length, 1, `${p} notified ${cb.posts(p).length} times`);
    assert.ok(cb.posts(p)[0].body.equals(expected), `${p} got the new bytes`);
  }
  assert.equal(await count("SELECT COUNT(*) AS n FROM hub_deliveries"), 0);
});

test("SIGKILL of one instance during a slow fan-out: every subscriber still notified", async () => {
  for (const p of all) cb.behaviours.set(p, { delayMs: 100 });
  const before = new Map(all.map((p) => [p, cb.posts(p).length]));
  const fresh = (p: string) => cb.posts(p).slice(before.get(p));
  await deploy(variants[2], dist);
  await until("some deliveries", () => all.filter((p) => fresh(p).length > 0).length >= 20, 30_000);
  await sidecars[0].stop("SIGKILL");
  // The next test needs every instance and normal callbacks, whatever this one found.
  try {
    const deliveredBeforeKill = all.filter((p) => fresh(p).length > 0).length;
    await until("every subscriber notified after the kill", () => all.every((p) => fresh(p).length >= 1), 60_000);
    const expected = await feedBytes();
    for (const p of all) assert.ok(fresh(p).at(-1)?.body.equals(expected), p);
    const duplicates = all.filter((p) => fresh(p).length > 1).length;
    console.log(
      `SIGKILL after ${deliveredBeforeKill}/220 deliveries; ${duplicates} duplicate(s) (in flight at the kill)`,
    );
    // Only the deliveries the killed instance had in flight or sent but not yet committed can repeat: a finished
    // delivery keeps its slot until its batch commits, so at most the most one host is given at once.
    assert.ok(duplicates <= DELIVERY_CONCURRENCY_PER_HOST_MAX, `${duplicates} duplicates`);
  } finally {
    for (const p of all) cb.behaviours.delete(p);
    await startInstance(0);
  }
});

test("a rolling restart under steady load through nginx fails no request", async () => {
  let stop = false;
  const failures: string[] = [];
  let ok = 0;
  const load = async (path: string) => {
    while (!stop) {
      try {
        const res = await fetch(`${nginx.url}${path}`);
        await res.arrayBuffer();
        if (res.status === 200) ok++;
        else failures.push(`${path} ${res.status}`);
      } catch (e) {
        failures.push(`${path} ${(e as Error).message}`);
      }
    }
  };
  const loops = [load("/reviews.json"), load("/api/reviews/search?limit=5"), load("/api/feed.json"), load("/readyz")];
  for (const i of [0, 1, 2]) {
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await sidecars[i].stop("SIGTERM"), 0);
    await new Promise((r) => setTimeout(r, 500));
    await startInstance(i);
  }
  await new Promise((r) => setTimeout(r, 500));
  stop = true;
  await Promise.all(loops);
  console.log(`rolling restart of 3 instances: ${ok} requests answered 200, ${failures.length} failed`);
  assert.deepEqual(failures, [], `nginx's error log:\n${nginx.errors().slice(-6000)}`);
  assert.ok(ok > 100);
});
