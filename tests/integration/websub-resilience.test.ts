// The hub under a SIGKILL mid-fan-out, after a build switch no sidecar recorded, with an empty allowlist (SSRF
// guard end to end, loopback only), and past its rate limit.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { COMPLETION_BATCH_MAX } from "../../sidecar/hub/hub-limits.ts";
import { CallbackServer, until, untilCount } from "../helpers/callback-server.ts";
import { buildVariants, freshDist, hubEnv, hubRequest, subscriptions, TOPICS } from "../helpers/hub-fixture.ts";
import { tempDir } from "../helpers/paths.ts";
import { deploy, startSidecarProcess } from "../helpers/sidecar-process.ts";
import { makeTestPki } from "../helpers/tls.ts";

const pki = await makeTestPki();
const variants = await buildVariants();

const baseEnv = (dist: string, dataDir: string) =>
  hubEnv({ dist, dataDir, caFile: pki.caFile }, { HUB_TIMEOUT_MS: "1000", HUB_RETRY_DELAYS_MS: "200,200" });

// Acknowledged deliveries are committed in batches: a kill loses the batch being committed (and the one being
// gathered), whose deliveries are sent again. A run holds its place among the 64 until its batch commits, so
// what is sent again is at most one batch.
test("a sidecar killed with SIGKILL mid-fan-out delivers the rest after it starts again, repeating at most one batch", async () => {
  const dist = await freshDist(variants[0]);
  const dataDir = join(await tempDir("hubkill"), "data");
  const cb = await CallbackServer.start(pki);
  // A verification GET that gets no answer within the timeout rejects the subscription; on a machine this busy
  // a 1 s timeout can expire while this process (the callbacks' server) is still sending the 200 requests.
  const env = { ...baseEnv(dist, dataDir), HUB_CALLBACK_ALLOWLIST: "127.0.0.0/8", HUB_TIMEOUT_MS: "5000" };
  let sidecar = await startSidecarProcess(env);
  try {
    const paths = Array.from({ length: 200 }, (_, i) => `/k/${i}`);
    await Promise.all(
      paths.map((p) =>
        hubRequest(sidecar.url, { "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": cb.url(p) }),
      ),
    );
    // Bounds against a hang, not speed checks: they fail only when nothing moves for 30 s, however slow the disk.
    await untilCount("200 verified", () => subscriptions(dataDir).length, 200);
    for (const p of paths) cb.behaviours.set(p, { delayMs: 150 });
    await deploy(variants[1], dist);
    await until("some deliveries", () => cb.received.filter((r) => r.method === "POST").length >= 20, 30_000);
    await sidecar.stop("SIGKILL");
    const postedBefore = cb.received.filter((r) => r.method === "POST").length;
    const deliveredBefore = paths.filter((p) => cb.posts(p).length > 0).length;
    assert.ok(deliveredBefore < 200, `killed mid-fan-out (${deliveredBefore} delivered)`);
    sidecar = await startSidecarProcess(env);
    await untilCount(
      "every subscriber delivered after the restart",
      () => paths.filter((p) => cb.posts(p).length >= 1).length,
      200,
    );
    const expected = await (
      await fetch(`${sidecar.url}/feed.xml`, { headers: { "Accept-Encoding": "identity" } })
    ).arrayBuffer();
    for (const p of paths) assert.ok(cb.posts(p).at(-1)?.body.equals(Buffer.from(expected)), p);
    const repeated = paths.filter((p) => cb.posts(p).length > 1);
    assert.ok(repeated.length <= COMPLETION_BATCH_MAX, `${repeated.length} subscribers got the change twice`);
    for (const p of repeated) assert.equal(cb.posts(p).length, 2, `${p}: sent again once, not more`);
    console.log(
      `SIGKILL after ${postedBefore} POSTs to ${deliveredBefore}/200 subscribers; the restarted sidecar delivered the rest, ${repeated.length} twice`,
    );
  } finally {
    await sidecar.stop();
    await cb.close();
  }
});

// A build deployed while no sidecar ran: the store still holds the old build's hash while the new build is
// served. The start records it again.
test("a build that changed while no sidecar recorded it is delivered when the sidecar starts", async () => {
  const dist = await freshDist(variants[0]);
  const dataDir = join(await tempDir("hubstart"), "data");
  const cb = await CallbackServer.start(pki);
  const env = { ...baseEnv(dist, dataDir), HUB_CALLBACK_ALLOWLIST: "127.0.0.0/8" };
  let sidecar = await startSidecarProcess(env);
  try {
    await hubRequest(sidecar.url, { "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": cb.url("/s") });
    await until("verified", () => subscriptions(dataDir).length === 1, 30_000);
    await sidecar.stop();
    await deploy(variants[1], dist);
    sidecar = await startSidecarProcess(env);
    await until("delivered after the start", () => cb.posts("/s").length >= 1, 30_000);
    const served = await (
      await fetch(`${sidecar.url}/feed.xml`, { headers: { "Accept-Encoding": "identity" } })
    ).arrayBuffer();
    assert.ok(cb.posts("/s").at(-1)?.body.equals(Buffer.from(served)));
  } finally {
    await sidecar.stop();
    await cb.close();
  }
});

test("with an empty allowlist, loopback callbacks are refused: no request reaches them", async () => {
  const dist = await freshDist(variants[0]);
  const dataDir = join(await tempDir("hubssrf"), "data");
  const v4 = await CallbackServer.start(pki, "127.0.0.1");
  let v6: CallbackServer | undefined;
  try {
    v6 = await CallbackServer.start(pki, "::1");
  } catch {
    v6 = undefined; // no IPv6 loopback on this machine: the [::1] callback is still refused below
  }
  const sidecar = await startSidecarProcess({
    ...baseEnv(dist, dataDir),
    HUB_CALLBACK_ALLOWLIST: "",
    HUB_RATE_LIMIT_PER_CLIENT: "8",
  });
  try {
    const callbacks = [
      v4.url("/ssrf-v4"),
      `https://[::ffff:127.0.0.1]:${v4.port}/ssrf-mapped`,
      `https://localhost:${v4.port}/ssrf-localhost`,
      `https://[::1]:${v6?.port ?? v4.port}/ssrf-v6`,
    ];
    for (const callback of callbacks) {
      const r = await hubRequest(sidecar.url, {
        "hub.mode": "subscribe",
        "hub.topic": TOPICS.atom,
        "hub.callback": callback,
      });
      assert.equal(r.status, 202, r.text);
    }
    await until(
      "four refused verifications logged",
      () => sidecar.logs.filter((l) => l.event === "hub.verify" && l.verified === false).length >= 4,
      10_000,
    );
    assert.equal(v4.received.length, 0);
    assert.equal(v6?.received.length ?? 0, 0);
    assert.equal(subscriptions(dataDir).length, 0);
    for (const l of sidecar.logs.filter((x) => x.event === "hub.verify"))
      assert.match(String(l.err), /no public address/);

    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await hubRequest(sidecar.url, {
            "hub.mode": "subscribe",
            "hub.topic": TOPICS.atom,
            "hub.callback": v4.url(`/rl/${i}`),
          })
        ).status,
      );
    }
    assert.deepEqual(statuses.slice(0, 4), [202, 202, 202, 202], "the limit is 8 per minute; 4 were used above");
    assert.deepEqual(statuses.slice(4), [429, 429]);
  } finally {
    await sidecar.stop();
    await v4.close();
    await v6?.close();
  }
});

test("the callback-host rate limit gives each callback host its own budget", async () => {
  const dist = await freshDist(variants[0]);
  const dataDir = join(await tempDir("hubrl"), "data");
  const sidecar = await startSidecarProcess({
    ...baseEnv(dist, dataDir),
    HUB_CALLBACK_ALLOWLIST: "",
    HUB_RATE_LIMIT_PER_CALLBACK_HOST: "3",
  });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (
          await hubRequest(sidecar.url, {
            "hub.mode": "subscribe",
            "hub.topic": TOPICS.atom,
            "hub.callback": `https://127.0.0.1:9/h/${i}`,
          })
        ).status,
      );
    }
    assert.deepEqual(statuses, [202, 202, 202, 429, 429]);
    const other = await hubRequest(sidecar.url, {
      "hub.mode": "subscribe",
      "hub.topic": TOPICS.atom,
      "hub.callback": "https://127.0.0.2:9/other",
    });
    assert.equal(other.status, 202, "another callback host has its own budget");
  } finally {
    await sidecar.stop();
  }
});
