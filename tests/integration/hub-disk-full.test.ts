// A full disk under DATA_DIR (a 300 KiB tmpfs) never crashes the sidecar and never silently loses
// an acknowledged subscribe request or the notifications of a build switch: requests are 202 only once stored
// (503 otherwise), /readyz reports the condition, and everything completes once space is freed.
import assert from "node:assert/strict";
import { mkdir, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { CallbackServer, until } from "../helpers/callback-server.ts";
import { buildVariants, freshDist, hubEnv, hubRequest, subscriptions, TOPICS } from "../helpers/hub-fixture.ts";
import { tempDir } from "../helpers/paths.ts";
import { deploy, startSidecarProcess } from "../helpers/sidecar-process.ts";
import { makeTestPki } from "../helpers/tls.ts";
import { mountTmpfs } from "../helpers/tmpfs.ts";

/** Fills the file system holding `dir` until it refuses another byte. */
async function fill(dir: string): Promise<string> {
  const path = join(dir, "filler");
  const f = await open(path, "w");
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) await f.write(chunk);
  } catch (e) {
    assert.equal((e as NodeJS.ErrnoException).code, "ENOSPC");
  }
  try {
    for (;;) await f.write(chunk.subarray(0, 1));
  } catch {
    // full to the byte
  } finally {
    await f.close().catch(() => undefined);
  }
  return path;
}

const readyz = async (url: string) =>
  (await fetch(`${url}/readyz`)).json() as Promise<{ warnings?: string[]; degraded?: string[] }>;

const dataDir = join(await tempDir("diskfull"), "data");
await mkdir(dataDir);
const mount = mountTmpfs(dataDir);
const cannotMount = "cannot" in mount ? mount.cannot : undefined;
if (cannotMount) console.log(`skipping the disk-full test: ${cannotMount}`);

test("a full disk under DATA_DIR: no crash, no acknowledged request lost, no notification lost", {
  skip: cannotMount,
}, async () => {
  const pki = await makeTestPki();
  const variants = await buildVariants();
  const dist = await freshDist(variants[0]);
  const cb = await CallbackServer.start(pki);
  const sidecar = await startSidecarProcess(hubEnv({ dist, dataDir, caFile: pki.caFile }));
  try {
    const early = Array.from({ length: 5 }, (_, i) => `/early/${i}`);
    for (const p of early) {
      const r = await hubRequest(sidecar.url, {
        "hub.mode": "subscribe",
        "hub.topic": TOPICS.json,
        "hub.callback": cb.url(p),
      });
      if (r.status !== 202) await new Promise((res) => setTimeout(res, 500));
      assert.equal(r.status, 202, r.text + JSON.stringify(sidecar.logs.filter((l) => l.event === "hub.store_error")));
    }
    await until("early subscribers verified", () => subscriptions(dataDir).length === 5, 20_000);

    const filler = await fill(dataDir);
    // A full file system does not stop every write at once: SQLite reuses free pages and its WAL file's space. Ask
    // until the store has had to refuse one (it then truly has no room), keeping what it acknowledged.
    const acknowledged: string[] = [];
    let refused = 0;
    for (let batch = 0; refused === 0; batch++) {
      assert.ok(batch < 40, "the store never ran out of space");
      const late = Array.from({ length: 14 }, (_, i) => `/late/${batch}/${i}`);
      const answers = await Promise.all(
        late.map((p) =>
          hubRequest(sidecar.url, { "hub.mode": "subscribe", "hub.topic": TOPICS.json, "hub.callback": cb.url(p) }),
        ),
      );
      for (const [i, a] of answers.entries()) {
        assert.ok(a.status === 202 || a.status === 503, `${a.status} ${a.text}`);
        if (a.status === 202) acknowledged.push(late[i]);
        else refused++;
      }
    }
    console.log(`with the disk full: ${acknowledged.length} subscribe requests acknowledged, ${refused} refused (503)`);

    // A build switch while the store cannot write: reported, not lost.
    await deploy(variants[1], dist);
    await until("readyz reports the store failure", async () => (await readyz(sidecar.url)).warnings?.length, 60_000);
    assert.equal((await fetch(`${sidecar.url}/readyz`)).status, 200, "reads are still served");
    assert.deepEqual((await (await fetch(`${sidecar.url}/healthz`)).json()).degraded, ["hub"]);
    assert.equal(sidecar.child.exitCode, null, "still running");
    assert.ok(sidecar.logs.some((l) => l.event === "hub.store_error"));

    await rm(filler);
    await until(
      "every early subscriber notified once space is back",
      () => early.every((p) => cb.posts(p).length >= 1),
      30_000,
    );
    await until(
      "every acknowledged request verified",
      () => acknowledged.every((p) => subscriptions(dataDir).some((s) => s.callback === cb.url(p))),
      30_000,
    );
    await until("readyz clear again", async () => !(await readyz(sidecar.url)).warnings, 60_000);
    assert.equal(sidecar.child.exitCode, null);
  } finally {
    await sidecar.stop();
    await cb.close();
    if ("unmount" in mount) mount.unmount();
  }
});
