// Operations with DATABASE_URL: /healthz, /readyz (the database degrades, never unready unless strict), /metrics
// (prom-client text), TRUST_PROXY, and a hub rate limit that counts across two instances sharing one PostgreSQL.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { BASE, buildVariants, freshDist, TOPICS } from "../helpers/hub-fixture.ts";
import { modern } from "../helpers/mcp-http.ts";
import { tempDir } from "../helpers/paths.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/pg.ts";
import { type SidecarProcess, startSidecarProcess } from "../helpers/sidecar-process.ts";
import { startTcpProxy } from "../helpers/tcp-proxy.ts";
import { until } from "../helpers/until.ts";

let db: TestDatabase;
let dist: string;
const running: SidecarProcess[] = [];
const start = async (env: Record<string, string>) => {
  const s = await startSidecarProcess({
    DIST_DIR: dist,
    DATA_DIR: join(await tempDir("ops"), "data"),
    BASE_URL: BASE,
    DATABASE_URL: db.url,
    LOG_LEVEL: "info",
    ...env,
  });
  running.push(s);
  return s;
};
const subscribeFrom = (url: string, client: string, i: number) =>
  fetch(`${url}/api/websub/hub`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": client },
    body: new URLSearchParams({
      "hub.mode": "subscribe",
      "hub.topic": TOPICS.json,
      "hub.callback": `https://127.0.0.1:9/ops/${i}`,
    }).toString(),
  }).then((r) => r.status);

before(async () => {
  db = await createTestDatabase("ops");
  dist = await freshDist((await buildVariants())[0]);
});
after(async () => {
  for (const s of running) await s.stop();
  await db.drop();
});

test("/healthz, /readyz and /metrics with a database", async () => {
  const s = await start({});
  assert.equal((await fetch(`${s.url}/healthz`)).status, 200);
  const ready = await fetch(`${s.url}/readyz`);
  const body = (await ready.json()) as { status: string; build_id: string; review_count: number };
  assert.equal(ready.status, 200);
  assert.equal(body.status, "ready");
  await fetch(`${s.url}/reviews.json`);
  await fetch(`${s.url}/api/reviews/since/2024-01-01`);
  await fetch(`${s.url}/api/reviews/since/2024-02-02`);
  await fetch(`${s.url}/no/such/path/${Math.random()}`);
  // MCP methods are counted by name; a name outside the protocol's is "other", never a label of its own.
  for (const method of ["tools/list", `made/up/${Math.random()}`]) {
    await modern(s.url, 1, method);
  }
  const res = await fetch(`${s.url}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const has = (re: RegExp) => assert.match(text, re);
  has(/reviews_http_request_duration_seconds_bucket\{[^}]*route="static"[^}]*status="200"/);
  has(
    /reviews_http_request_duration_seconds_count\{method="GET",route="\/api\/reviews\/since\/:date",status="200"\} 2/,
  );
  has(/route="unmatched",status="404"/);
  assert.doesNotMatch(text, /route="\/no\/such|2024-01-01/, "raw paths never become labels");
  has(new RegExp(`reviews_build_info\\{build_id="${body.build_id}",content_revision="[^"]*"\\} 1`));
  has(/reviews_build_failures_total 0/);
  has(/reviews_build_stale_seconds 0/);
  has(/reviews_build_last_success_timestamp_seconds \d/);
  has(new RegExp(`reviews_reviews_published ${body.review_count}`));
  has(/reviews_build_age_seconds \d/);
  has(/reviews_hub_subscriptions 0/);
  has(/reviews_hub_deliveries_pending 0/);
  has(/reviews_hub_deliveries_delivered_total 0/);
  has(/reviews_mcp_requests_total\{method="tools\/list"\} 1/);
  has(/reviews_mcp_requests_total\{method="other"\} 1/);
  assert.doesNotMatch(text, /made\/up/, "client-chosen method names never become labels");
  has(/reviews_nodejs_eventloop_lag_seconds/);
  has(/reviews_process_resident_memory_bytes/);
});

test("TRUST_PROXY=loopback: the per-client limit and the log see the address behind the proxy", async () => {
  const s = await start({ TRUST_PROXY: "loopback", HUB_RATE_LIMIT_PER_CLIENT: "2" });
  const a = [await subscribeFrom(s.url, "203.0.113.7", 1), await subscribeFrom(s.url, "203.0.113.7", 2)];
  assert.ok(
    a.every((st) => st !== 429),
    String(a),
  );
  assert.equal(await subscribeFrom(s.url, "203.0.113.7", 3), 429);
  assert.notEqual(await subscribeFrom(s.url, "203.0.113.8", 4), 429, "another client behind the proxy");
  await until("the log line of the request from behind the proxy", () =>
    s.logs.some((l) => l.event === "http.request" && l.client === "203.0.113.8"),
  );
});

test("without TRUST_PROXY, X-Forwarded-For is not believed", async () => {
  const s = await start({ HUB_RATE_LIMIT_PER_CLIENT: "2" });
  await subscribeFrom(s.url, "203.0.113.9", 1);
  await subscribeFrom(s.url, "203.0.113.10", 2);
  assert.equal(await subscribeFrom(s.url, "203.0.113.11", 3), 429, "all three come from one loopback address");
});

test("the hub rate limit counts across two instances on one database", async () => {
  const env = { HUB_RATE_LIMIT_PER_CLIENT: "10", TRUST_PROXY: "loopback" };
  const [one, two] = [await start(env), await start(env)];
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) statuses.push(await subscribeFrom(i % 2 ? one.url : two.url, "198.51.100.4", 100 + i));
  assert.equal(statuses.filter((st) => st !== 429).length, 10, String(statuses));
});

test("the database unreachable under two sidecars: reads 200, hub 503, /readyz 200 degraded, all back afterwards", async () => {
  const proxy = await startTcpProxy(Number(new URL(db.url).port || 5432));
  try {
    const viaProxy = new URL(db.url);
    viaProxy.port = String(proxy.port);
    const env = {
      DATABASE_URL: viaProxy.toString(),
      HUB_RATE_LIMIT_PER_CLIENT: "1000",
      HUB_RATE_LIMIT_PER_CALLBACK_HOST: "1000",
    };
    const pair = [await start(env), await start(env)];
    for (const s of pair) {
      const body = await (await fetch(`${s.url}/readyz`)).json();
      assert.equal(body.degraded, undefined);
    }
    await proxy.cut();
    for (const s of pair) {
      assert.equal((await fetch(`${s.url}/reviews.json`)).status, 200, "static reads");
      assert.equal((await fetch(`${s.url}/api/reviews/search?query=furnace`)).status, 200, "search");
      const hub = await fetch(`${s.url}/api/websub/hub`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          "hub.mode": "subscribe",
          "hub.topic": TOPICS.json,
          "hub.callback": "https://127.0.0.1:9/outage",
        }).toString(),
      });
      assert.equal(hub.status, 503, await hub.text());
      assert.match(hub.headers.get("retry-after") ?? "", /^\d+$/);
      // Checks are cached for a moment (many balancers poll): the outage shows within a few seconds.
      await until("the outage in /readyz", async () => (await (await fetch(`${s.url}/readyz`)).json()).degraded);
      const ready = await fetch(`${s.url}/readyz`);
      const body = await ready.json();
      assert.equal(ready.status, 200, "an outage every instance shares does not take this one out");
      assert.equal(body.status, "ready");
      assert.ok(body.degraded.includes("database"), JSON.stringify(body));
      assert.match(body.warnings.join(" "), /database/);
      const strict = await fetch(`${s.url}/readyz?strict=1`);
      assert.equal(strict.status, 503);
      assert.match((await strict.json()).problems.join(" "), /database/);
      assert.deepEqual((await (await fetch(`${s.url}/healthz`)).json()).degraded.includes("database"), true);
      assert.match(await (await fetch(`${s.url}/metrics`)).text(), /reviews_dependency_up\{dependency="database"\} 0/);
    }
    await proxy.restore();
    for (const s of pair) {
      // The hub's recorded store failure clears with its next store operation that succeeds: a request here (else
      // its once-a-minute sweep). Until the database answers again, the request is refused.
      await until(
        "the hub accepting again",
        async () => (await subscribeFrom(s.url, "192.0.2.1", 900 + pair.indexOf(s))) === 202,
      );
      await until(
        "the database back in /readyz",
        async () => (await (await fetch(`${s.url}/readyz`)).json()).degraded === undefined,
        15_000,
      );
      assert.equal((await fetch(`${s.url}/readyz?strict=1`)).status, 200);
      assert.match(await (await fetch(`${s.url}/metrics`)).text(), /reviews_dependency_up\{dependency="database"\} 1/);
    }
    assert.equal((await fetch(`${pair[0].url}/readyz?strict=maybe`)).status, 400);
  } finally {
    await proxy.close();
  }
});
