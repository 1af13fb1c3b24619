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
  // The request is in flight once its response has begun: the headers are in, the body not yet read.
  const response = await fetch(`${sidecar.url}/reviews.json`, { headers: { "Accept-Encoding": "identity" } });
  const expectedBytes = Number(response.headers.get("content-length"));
  const inFlight = response.arrayBuffer().then((b) => ({ status: response.status, bytes: b.byteLength }));
  const code = await sidecar.stop("SIGTERM");
  const answered = await inFlight;
  assert.equal(code, 0);
  assert.equal(answered.status, 200);
  assert.ok(expectedBytes > 1000);
  assert.equal(answered.bytes, expectedBytes, "the whole body arrived");
  assert.ok(sidecar.logs.some((l) => l.event === "server.shutdown" && l.signal === "SIGTERM"));
  await assert.rejects(fetch(`${sidecar.url}/reviews.json`), "no longer accepting");
});
