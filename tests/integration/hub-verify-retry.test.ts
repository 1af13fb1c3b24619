// A verification of intent that gets no answer (a timeout, a 503) is asked again, a bounded number of times with
// growing jittered waits, while an answer that refuses is final: the sidecar as a real process against a real
// HTTPS subscriber on loopback.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { CallbackServer, until } from "../helpers/callback-server.ts";
import {
  buildVariants,
  freshDist,
  hubEnv,
  hubQueue,
  hubRequest,
  subscriptions,
  TOPICS,
} from "../helpers/hub-fixture.ts";
import { tempDir } from "../helpers/paths.ts";
import { type SidecarProcess, startSidecarProcess } from "../helpers/sidecar-process.ts";
import { makeTestPki } from "../helpers/tls.ts";

/** Waits before the 2nd and 3rd attempt: three attempts in all. */
const DELAYS_MS = [300, 600];

let dataDir: string;
let cb: CallbackServer;
let sidecar: SidecarProcess;

before(async () => {
  const [pki, variants] = await Promise.all([makeTestPki(), buildVariants()]);
  dataDir = join(await tempDir("hubretry"), "data");
  cb = await CallbackServer.start(pki);
  sidecar = await startSidecarProcess(
    hubEnv(
      { dist: await freshDist(variants[0]), dataDir, caFile: pki.caFile },
      { HUB_TIMEOUT_MS: "1000", HUB_VERIFY_RETRY_DELAYS_MS: DELAYS_MS.join(",") },
    ),
  );
});

after(async () => {
  await sidecar?.stop();
  await cb?.close();
});

/** Subscribes `path` and waits until the hub has nothing pending for it: verified, or refused for good. */
async function subscribeAndSettle(path: string) {
  const r = await hubRequest(sidecar.url, {
    "hub.mode": "subscribe",
    "hub.topic": TOPICS.atom,
    "hub.callback": cb.url(path),
  });
  assert.equal(r.status, 202, r.text);
  await until(`a first verification GET to ${path}`, () => cb.gets(path).length > 0);
  await until(`the hub done with ${path}`, () => !hubQueue(dataDir).verifications.includes(cb.url(path)));
  return subscriptions(dataDir).find((s) => s.callback === cb.url(path));
}

test("a callback that first does not answer, then answers, is subscribed", async () => {
  cb.behaviours.set("/silent-then-echo", { verify: ["silent", "echo"] });
  assert.ok(await subscribeAndSettle("/silent-then-echo"), "active after the retry");
  const gets = cb.gets("/silent-then-echo");
  assert.equal(gets.length, 2);
  assert.notEqual(
    gets[0].query.get("hub.challenge"),
    gets[1].query.get("hub.challenge"),
    "a fresh challenge each time",
  );
});

test("a callback that answers 503 twice, then the challenge, is subscribed; the waits grow", async () => {
  cb.behaviours.set("/503-then-echo", { verify: [{ status: 503 }, { status: 503 }, "echo"] });
  assert.ok(await subscribeAndSettle("/503-then-echo"), "active after two retries");
  const at = cb.gets("/503-then-echo").map((g) => g.at);
  assert.equal(at.length, 3);
  // Each wait is drawn between half and all of its configured value, so never shorter than half.
  assert.ok(at[1] - at[0] >= DELAYS_MS[0] / 2, `first wait ${at[1] - at[0]} ms`);
  assert.ok(at[2] - at[1] >= DELAYS_MS[1] / 2, `second wait ${at[2] - at[1]} ms`);
});

test("a callback that never gives a usable answer is refused after the documented attempts", async () => {
  cb.behaviours.set("/always-503", { verify: { status: 503 } });
  cb.behaviours.set("/always-silent", { verify: "silent" });
  const [a, b] = await Promise.all([subscribeAndSettle("/always-503"), subscribeAndSettle("/always-silent")]);
  assert.equal(a, undefined);
  assert.equal(b, undefined);
  assert.equal(cb.gets("/always-503").length, DELAYS_MS.length + 1);
  assert.equal(cb.gets("/always-silent").length, DELAYS_MS.length + 1);
  const refusals = sidecar.logs.filter(
    (l) => l.event === "hub.verify_retry" && /refused after the last attempt/.test(String(l.msg)),
  );
  assert.deepEqual(
    refusals.map((l) => l.attempt),
    [3, 3],
    "each refusal logged once, at the last attempt",
  );
});

test("an answer that refuses is final: a wrong challenge or a 404 is asked once", async () => {
  cb.behaviours.set("/wrong-body", { verify: "wrong-body" });
  cb.behaviours.set("/404", { verify: { status: 404 } });
  const [a, b] = await Promise.all([subscribeAndSettle("/wrong-body"), subscribeAndSettle("/404")]);
  assert.equal(a, undefined);
  assert.equal(b, undefined);
  assert.equal(cb.gets("/wrong-body").length, 1);
  assert.equal(cb.gets("/404").length, 1);
});
