// The verification queue is bounded. Callbacks that accept connections and never answer fill their
// host's share (429) and then the whole queue (503); a request for another host is still taken meanwhile.
import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { buildVariants, freshDist, hubEnv, hubRequest, TOPICS } from "../helpers/hub-fixture.ts";
import { tempDir } from "../helpers/paths.ts";
import { startSidecarProcess } from "../helpers/sidecar-process.ts";

test("verifications pending per callback host and in all are bounded: 429, then 503", async () => {
  const sockets: Socket[] = [];
  const silent = createServer((s) => void sockets.push(s)); // accepts, never answers
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  const port = (silent.address() as { port: number }).port;
  const sidecar = await startSidecarProcess(
    hubEnv(
      { dist: await freshDist((await buildVariants())[0]), dataDir: join(await tempDir("hubqueue"), "data") },
      { HUB_TIMEOUT_MS: "30000", HUB_VERIFY_QUEUE_MAX: "3", HUB_VERIFY_QUEUE_MAX_PER_HOST: "2" },
    ),
  );
  const sub = (host: string, path: string) =>
    hubRequest(sidecar.url, {
      "hub.mode": "subscribe",
      "hub.topic": TOPICS.json,
      "hub.callback": `https://${host}:${port}${path}`,
    });
  try {
    assert.equal((await sub("127.0.0.1", "/a")).status, 202);
    assert.equal((await sub("127.0.0.1", "/b")).status, 202);
    const third = await sub("127.0.0.1", "/c");
    assert.equal(third.status, 429);
    assert.match(third.text, /pending for 127\.0\.0\.1/);
    // The same host spelled with a trailing dot and another port is the same host.
    assert.equal((await sub("127.0.0.1.", "/d")).status, 429);
    // Another callback host still gets in while the first one's callbacks hang.
    assert.equal((await sub("localhost", "/e")).status, 202);
    const full = await fetch(`${sidecar.url}/api/websub/hub`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        "hub.mode": "subscribe",
        "hub.topic": TOPICS.json,
        "hub.callback": `https://[::1]:${port}/f`,
      }).toString(),
    });
    assert.equal(full.status, 503);
    assert.ok(full.headers.get("retry-after"));
    assert.match(await full.text(), /queue is full/);
    // A repeated request for a pair already waiting replaces it instead of taking another place.
    assert.equal((await sub("127.0.0.1", "/a")).status, 202);
  } finally {
    await sidecar.stop();
    for (const s of sockets) s.destroy();
    silent.close();
  }
});
