// PostgreSQL for shared state (DATABASE_URL): one pool per process, shared by every store that needs one
// (the hub, the rate limiter, and whatever else keeps state across instances, e.g. MCP sessions).
import pg from "pg";

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

// BIGINT columns hold milliseconds since the epoch: read them as numbers, not strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export const POOL_MAX = 10;

export function createPool(databaseUrl: string, max = POOL_MAX): Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, connectionTimeoutMillis: 5_000 });
  // A client losing its connection (database restart, dropped database) must not crash the process. The pool
  // handles an idle client's error; a checked-out client (a transaction between two statements, the migration
  // lock) has no listener of the pool's, and an 'error' event without one would end the process. Its query in
  // flight, or its next one, fails instead, and the pool discards it on release (it is no longer queryable).
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
  return pool;
}

/** Null when the database answers within `timeoutMs`, else the reason (readiness). */
export async function pingDatabase(pool: Pool, timeoutMs = 2_000): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`database did not answer within ${timeoutMs} ms`), timeoutMs);
  });
  const query = pool.query("SELECT 1").then(
    () => null,
    (e: Error) => `database unreachable: ${e.message}`,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `fn` in one transaction on one client. */
export async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const out = await fn(client);
    await client.query("COMMIT");
    return out;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
