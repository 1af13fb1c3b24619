// SIGTERM: the sidecar stops accepting, lets a request in flight finish, closes its database and exits 0; a
// second signal exits at once; signalling npm (the process an operator or a process manager started) or killing
// it ends the server too, leaving nothing listening.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { buildSample } from "../helpers/build.ts";
import { alive, cleanUp, listening, type NpmProcess, startNpm } from "../helpers/npm-process.ts";
import { tempDir } from "../helpers/paths.ts";
import { startSidecarProcess } from "../helpers/sidecar-process.ts";
import { until } from "../helpers/until.ts";

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
  for (const l of sidecar.logs) {
    assert.match(String(l.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, "ISO-8601 times in the JSON log");
  }
  await assert.rejects(fetch(`${sidecar.url}/reviews.json`), "no longer accepting");
});

test("SIGTERM to npm run serve (npm's own pid) drains the server and frees the port", async () => {
  let run: NpmProcess | undefined;
  try {
    run = await startNpm("serve", { DIST_DIR: await buildSample(), DATA_DIR: join(await tempDir("npm"), "data") });
    assert.notEqual(run.serverPid, run.npm.pid, "npm started the server as a process of its own");
    assert.equal((await fetch(`${run.url}/reviews.json`)).status, 200);
    run.npm.kill("SIGTERM");
    await run.exited;
    const server = run.serverPid;
    await until("the server to exit", () => !alive(server), 15_000);
    assert.equal(await listening(run.port), false, "nothing listens on the port any more");
    assert.ok(run.logs.some((l) => l.event === "server.shutdown" && l.signal === "SIGTERM"));
  } finally {
    cleanUp(run);
  }
});

test("npm killed outright: the server it started notices, drains and exits", async () => {
  let run: NpmProcess | undefined;
  try {
    run = await startNpm("serve", { DIST_DIR: await buildSample(), DATA_DIR: join(await tempDir("npm"), "data") });
    run.npm.kill("SIGKILL");
    await run.exited;
    const server = run.serverPid;
    await until("the orphaned server to exit", () => !alive(server), 15_000);
    assert.equal(await listening(run.port), false);
    assert.ok(run.logs.some((l) => l.event === "server.shutdown" && l.signal === "parent exited"));
  } finally {
    cleanUp(run);
  }
});

test("a second signal exits at once, without waiting for a request that is still being sent", async () => {
  const sidecar = await startSidecarProcess({
    DIST_DIR: await buildSample(),
    DATA_DIR: join(await tempDir("stop"), "data"),
  });
  const socket = connect(Number(new URL(sidecar.url).port), "127.0.0.1");
  try {
    await new Promise((r) => socket.once("connect", r));
    // A body declared and never finished keeps a request in flight: the first signal waits for it.
    socket.write(
      "POST /api/websub/hub HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\nhub.mode=",
    );
    // The server reads what its sockets receive as it arrives: once it has answered a request sent after these
    // bytes, it has read them, and the request is in flight.
    await (await fetch(`${sidecar.url}/healthz`)).arrayBuffer();
    const exit = new Promise<number | null>((r) => sidecar.child.once("exit", (code) => r(code)));
    sidecar.child.kill("SIGTERM");
    await until("draining", () => sidecar.logs.some((l) => l.event === "server.shutdown"));
    assert.equal(sidecar.child.exitCode, null, "the first signal waits for the request in flight");
    sidecar.child.kill("SIGTERM");
    // Exit code 1 is the second signal's: the drain's own end (all done, or its 10 s bound) exits 0.
    assert.equal(await exit, 1);
  } finally {
    socket.destroy();
    await sidecar.stop("SIGKILL");
  }
});
