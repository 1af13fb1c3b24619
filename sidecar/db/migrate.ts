// Versioned migrations applied at start under an advisory lock, so instances starting together never race:
// the first applies what is missing, the others wait for the lock and then find nothing to do. Each
// component (hub, rate limits, MCP sessions, …) keeps its own numbered list and names its tables: a database
// whose schema_migrations says a component's tables exist while some do not (a partial restore, a table dropped
// by hand) is repaired when the component's data can be lost (counters, caches), and refused with a message
// saying what to do otherwise.
import type { Pool, PoolClient } from "./pool.ts";

export interface PgSchema {
  component: string;
  migrations: readonly string[];
  /** Every table the migrations create: a backup holds them, and the start checks they exist. */
  tables: readonly string[];
  /** What a missing table means: "recreate" (the data may be lost) or "refuse" (it must be restored). */
  whenMissing: "recreate" | "refuse";
}

/** Tables of `tables` that the current schema lacks. */
async function missingTables(client: Pick<PoolClient, "query">, tables: readonly string[]): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1)",
    [tables],
  );
  const present = new Set(rows.map((r) => r.table_name));
  return tables.filter((t) => !present.has(t));
}

/** Applies `schema`'s migrations; calls `onRepaired` when it recreated a component whose tables were missing. */
export async function migrateSchema(
  pool: Pool,
  schema: PgSchema,
  onRepaired: (message: string) => void = () => undefined,
): Promise<number> {
  return migrate(pool, schema.component, schema.migrations, { schema, onRepaired });
}

/** An arbitrary constant: the key of the session-level advisory lock that serialises migrations. */
const MIGRATION_LOCK_KEY = 7_318_004_121;

export async function migrate(
  pool: Pool,
  component: string,
  migrations: readonly string[],
  check?: { schema: PgSchema; onRepaired: (message: string) => void },
): Promise<number> {
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
      let current = rows[0]?.v ?? 0;
      const missing = current > 0 && check ? await missingTables(client, check.schema.tables) : [];
      if (missing.length && check?.schema.whenMissing === "refuse") {
        throw new Error(
          `The database's schema_migrations says the ${component} tables exist (version ${current}), but ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} missing (a partial restore?). Restore a backup made with npm run hub -- backup (npm run hub -- restore FILE), or to start ${component} empty: DELETE FROM schema_migrations WHERE component = '${component}'; and drop its other tables (${check.schema.tables.join(", ")}).`,
        );
      }
      if (missing.length && check) {
        for (const t of check.schema.tables) await client.query(`DROP TABLE IF EXISTS ${t} CASCADE`);
        await client.query("DELETE FROM schema_migrations WHERE component = $1", [component]);
        current = 0;
        check.onRepaired(
          `${missing.join(", ")} missing though schema_migrations listed ${component}: recreated ${component}'s tables empty`,
        );
      }
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
