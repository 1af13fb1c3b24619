// SIGTERM: the sidecar stops accepting, lets a request in flight finish, closes its database and exits 0.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { buildSample } from "../helpers/build.ts";
import { tempDir } from "../helpers/paths.ts";
import { startSidecarProcess } from "../helpers/sidecar-process.ts";

test("SIGTERM finishes the request in flight, then exits 0", async () => {
  const sidecar = await startSidecarProcess({
    DIST_DIR: await buildSample(),
    DATA_DIR: join(await tempDir("stop"), "data"),
  });
  const inFlight = fetch(`${sidecar.url}/reviews.json`, { headers: { "Accept-Encoding": "identity" } }).then(
    async (r) => ({
      status: r.status,
      bytes: (await r.arrayBuffer()).byteLength,
    }),
  );
  await new Promise((r) => setTimeout(r, 5));
  const code = await sidecar.stop("SIGTERM");
  const answered = await inFlight;
  assert.equal(code, 0);
  assert.equal(answered.status, 200);
  assert.ok(answered.bytes > 1000);
  assert.ok(sidecar.logs.some((l) => l.event === "server.shutdown" && l.signal === "SIGTERM"));
  await assert.rejects(fetch(`${sidecar.url}/reviews.json`), "no longer accepting");
});
