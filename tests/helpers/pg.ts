// A fresh PostgreSQL database per test file on the machine's server (127.0.0.1:5432, trust auth), dropped
// afterwards. No PostgreSQL is a clear failure, never a silent skip.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { onExit } from "./cleanup.ts";
import { ROOT } from "./paths.ts";

const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (e) {
    throw new Error(
      `PostgreSQL is not reachable at ${ADMIN_URL} (${(e as Error).message}). Start it: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`,
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(label = "t"): Promise<TestDatabase> {
  const name = `rps_${label}_${randomBytes(6).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  // A test that fails or throws before its own drop still leaves no database: the process drops it as it exits.
  const forget = onExit(() => dropNow(name));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      forget();
    },
  };
}

/** Drops a database synchronously (nothing asynchronous runs while a process exits), in a short child process. */
function dropNow(name: string) {
  const script = `import pg from "pg"; const c = new pg.Client({ connectionString: process.argv[1], connectionTimeoutMillis: 5000 });
await c.connect(); await c.query("DROP DATABASE IF EXISTS ${name} WITH (FORCE)"); await c.end();`;
  spawnSync(process.execPath, ["--input-type=module", "-e", script, ADMIN_URL], { cwd: ROOT, timeout: 15_000 });
}
