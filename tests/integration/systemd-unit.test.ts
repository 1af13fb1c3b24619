// examples/reviews-sidecar@.service: systemd accepts it, it runs what npm run serve runs, and the process it
// starts drains and exits 0 on systemd's KillSignal within TimeoutStopSec, leaving the port free.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { buildSample } from "../helpers/build.ts";
import { until } from "../helpers/callback-server.ts";
import { freePort } from "../helpers/free-port.ts";
import { listening } from "../helpers/npm-process.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";

const UNIT = join(ROOT, "examples", "reviews-sidecar@.service");
const setting = (unit: string, key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, "gm"))].map((m) => m[1]);
/** The unit as installed on this machine: the service's folder is this working copy. */
const localised = async () => (await readFile(UNIT, "utf8")).replaceAll("/srv/reviews", ROOT.replace(/\/$/, ""));

test("systemd-analyze verify accepts the unit without a warning", async () => {
  const dir = await tempDir("unit");
  const unit = (await localised()).replace("/etc/reviews/sidecar.env", join(ROOT, ".env.example"));
  const file = join(dir, "reviews-sidecar@4321.service");
  await writeFile(file, unit);
  const run = await promisify(execFile)("systemd-analyze", ["verify", file]).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
  assert.equal(run.code, 0, run.out);
  assert.equal(run.out.trim(), "", "no warning");
});

test("the unit runs npm run serve's command, and its KillSignal drains and exits 0 in time", async () => {
  const unit = await localised();
  const serve = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")).scripts.serve as string;
  const [exec] = setting(unit, "ExecStart");
  const [binary, ...args] = exec.split(" ");
  assert.equal(binary, join(ROOT, "node_modules/.bin/node"));
  // npm run serve: `exec env NAME=value ... node <flags> <entry>`.
  const words = serve.split(" ");
  const node = words.indexOf("node");
  assert.equal(`node ${args.join(" ")}`, words.slice(node).join(" "), "the same flags and entry as npm run serve");
  const environment = setting(unit, "Environment");
  for (const assignment of words.slice(0, node).filter((w) => /^\w+=/.test(w)))
    assert.ok(environment.includes(assignment), `the unit sets ${assignment} as npm run serve does`);
  assert.equal(setting(unit, "KillSignal")[0], "SIGTERM");
  const stopSeconds = Number(setting(unit, "TimeoutStopSec")[0]);

  const port = await freePort();
  const child = spawn(binary, args, {
    cwd: setting(unit, "WorkingDirectory")[0],
    env: {
      ...Object.fromEntries(environment.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)])),
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      DIST_DIR: await buildSample(),
      DATA_DIR: join(await tempDir("unit"), "data"),
      LOG_LEVEL: "warn",
    },
    stdio: "ignore",
  });
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  try {
    await until("listening", () => listening(port), 30_000);
    assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
    const signalled = Date.now();
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
    assert.ok(Date.now() - signalled < stopSeconds * 1000, "before systemd would SIGKILL");
    assert.equal(await listening(port), false);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
});
