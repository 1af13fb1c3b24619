// Whatever way a test file ends (a failing test, an error outside any test, a SIGTERM or SIGINT while it runs),
// it leaves no temporary folder, database, mount or process behind.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import pg from "pg";
import { until } from "../helpers/callback-server.ts";
import { ROOT } from "../helpers/paths.ts";

const FIXTURE = join(ROOT, "tests/integration/fixtures/leaves-nothing.ts");

interface Made {
  dir: string;
  mountPoint: string | null;
  database: string;
  pids: number[];
}

function alive(pid: number): boolean {
  try {
    // A zombie is dead: its parent just has not collected it yet.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function databaseExists(name: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/test" });
  await c.connect();
  try {
    return (await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

async function runFixture(mode: string, signal?: NodeJS.Signals): Promise<{ code: number | null; made: Made }> {
  const child = spawn(process.execPath, ["--test-force-exit", FIXTURE, mode], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let made: Made | undefined;
  child.stdout.on("data", (d) => {
    out += d;
    const line = out.split("\n").find((l) => l.startsWith("{"));
    if (line && !made) made = JSON.parse(line);
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const m = await until("the fixture made its things", () => made, 60_000);
  assert.ok(existsSync(m.dir) && (await databaseExists(m.database)) && m.pids.every(alive), "all made");
  child.stdin.write("go\n");
  if (signal) {
    await until("the fixture's test is running", () => out.includes("running"));
    child.kill(signal);
  }
  return { code: await exited, made: m };
}

for (const [mode, signal] of [
  ["fail", undefined],
  ["throw", undefined],
  ["hang", "SIGTERM"],
  ["hang", "SIGINT"],
] as const) {
  test(`a test file that ends by ${signal ?? mode} leaves nothing behind`, async () => {
    const { code, made } = await runFixture(mode, signal);
    assert.notEqual(code, 0, "the fixture failed as meant");
    assert.equal(existsSync(made.dir), false, "temporary folder removed");
    assert.equal(await databaseExists(made.database), false, "database dropped");
    if (made.mountPoint) {
      const mounts = readFileSync("/proc/mounts", "utf8");
      assert.equal(mounts.includes(` ${made.mountPoint} `), false, "tmpfs unmounted");
    }
    await until("its processes gone", () => made.pids.every((p) => !alive(p)));
  });
}
