// Versioned migrations applied at start under an advisory lock, so instances starting together never race:
// the first applies what is missing, the others wait for the lock and then find nothing to do. Each
// component (hub, rate limits, MCP sessions, …) keeps its own numbered list.
import type { Pool } from "./pool.ts";

/** An arbitrary constant: the key of the session-level advisory lock that serialises migrations. */
const MIGRATION_LOCK_KEY = 7_318_004_121;

export async function migrate(pool: Pool, component: string, migrations: readonly string[]): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        component TEXT NOT NULL, version INTEGER NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (component, version))`);
      const { rows } = await client.query<{ v: number | null }>(
        "SELECT MAX(version) AS v FROM schema_migrations WHERE component = $1",
        [component],
      );
      const current = rows[0]?.v ?? 0;
      if (current > migrations.length) {
        throw new Error(
          `database has ${component} schema version ${current}, newer than this sidecar's ${migrations.length}`,
        );
      }
      for (let v = current; v < migrations.length; v++) {
        await client.query("BEGIN");
        try {
          await client.query(migrations[v]);
          await client.query("INSERT INTO schema_migrations (component, version) VALUES ($1, $2)", [component, v + 1]);
          await client.query("COMMIT");
        } catch (e) {
          await client.query("ROLLBACK");
          throw new Error(`${component} migration ${v + 1} failed: ${(e as Error).message}`);
        }
      }
      return migrations.length - current;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
