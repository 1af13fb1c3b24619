// Start-up failures an operator meets first: a port in use names the variable to change.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { buildSample } from "../helpers/build.ts";
import { ROOT } from "../helpers/paths.ts";

test("EADDRINUSE says which variable to change, without a stack trace", async () => {
  const dist = await buildSample();
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
  const port = (blocker.address() as { port: number }).port;
  try {
    const child = spawn(process.execPath, [join(ROOT, "sidecar/server.ts")], {
      env: { ...process.env, DIST_DIR: dist, PORT: String(port), HOST: "127.0.0.1", LOG_FORMAT: "json" },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const code = await new Promise((r) => child.on("exit", r));
    assert.equal(code, 1);
    const fatal = output
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((l) => l.event === "server.start_failed");
    assert.match(fatal.msg, new RegExp(`127\\.0\\.0\\.1:${port} is already in use.*set PORT`));
    assert.doesNotMatch(output, /\n\s+at /);
  } finally {
    blocker.close();
  }
});
