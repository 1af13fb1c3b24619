// Ended MCP sessions shared through PostgreSQL (DATABASE_URL): an id ended on one instance is refused by every
// instance. Each instance keeps the ended ids in memory and reads the ones ended elsewhere every second, so a
// check never waits for the database; an id ended on another instance is refused within about a second.
import { randomBytes } from "node:crypto";
import { memoryRevocationStore, type RevocationStore } from "../mcp/revocation-store.ts";
import { migrateSchema, type PgSchema } from "./migrate.ts";
import type { Pool } from "./pool.ts";

/**
 * Ended session ids, and the key that signs them when MCP_SESSION_SECRET is not set: a lost table is recreated
 * empty (a revived id grants nothing a new session would not; a new key only ends the sessions of the old one).
 */
export const REVOCATION_SCHEMA: PgSchema = {
  component: "mcp_sessions",
  migrations: [
    `CREATE TABLE mcp_revoked_sessions (id TEXT PRIMARY KEY, until_ms BIGINT NOT NULL, revoked_ms BIGINT NOT NULL);
     CREATE INDEX mcp_revoked_sessions_revoked ON mcp_revoked_sessions (revoked_ms);`,
    "CREATE TABLE mcp_session_key (id INTEGER PRIMARY KEY CHECK (id = 1), key BYTEA NOT NULL);",
  ],
  tables: ["mcp_revoked_sessions", "mcp_session_key"],
  whenMissing: "recreate",
};

export const REVOCATION_POLL_MS = 1_000;

/**
 * The key that signs session ids, the same for every instance on this database: the first instance stores a
 * random one (ON CONFLICT keeps whichever came first), every instance reads it. Session ids only open public,
 * read-only data, so the database is a fit place for it; MCP_SESSION_SECRET, when set, is used instead.
 */
export async function pgSessionKey(pool: Pool): Promise<Buffer> {
  await migrateSchema(pool, REVOCATION_SCHEMA);
  await pool.query("INSERT INTO mcp_session_key (id, key) VALUES (1, $1) ON CONFLICT (id) DO NOTHING", [
    randomBytes(32),
  ]);
  const { rows } = await pool.query<{ key: Buffer }>("SELECT key FROM mcp_session_key WHERE id = 1");
  return rows[0].key;
}
/** Rows are read again this far back, so a row committed just after a read with an earlier clock is not missed. */
const OVERLAP_MS = 10_000;

export async function pgRevocationStore(
  pool: Pool,
  onError: (e: Error) => void = () => undefined,
  onRepaired: (message: string) => void = () => undefined,
): Promise<RevocationStore> {
  await migrateSchema(pool, REVOCATION_SCHEMA, onRepaired);
  // The in-memory store (bounded, swept) is the local copy; PostgreSQL is how the copies learn of each other.
  const local = memoryRevocationStore();
  let since = 0;
  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      const now = Date.now();
      const { rows } = await pool.query<{ id: string; until_ms: number }>(
        "SELECT id, until_ms FROM mcp_revoked_sessions WHERE revoked_ms >= $1 AND until_ms > $2",
        [since - OVERLAP_MS, now],
      );
      for (const r of rows) await local.revoke(r.id, r.until_ms);
      since = now;
    } catch (e) {
      onError(e as Error);
    } finally {
      polling = false;
    }
  };
  const sweep = () => pool.query("DELETE FROM mcp_revoked_sessions WHERE until_ms <= $1", [Date.now()]).catch(onError);
  await poll();
  const pollTimer = setInterval(() => void poll(), REVOCATION_POLL_MS);
  const sweepTimer = setInterval(() => void sweep(), 60_000);
  pollTimer.unref();
  sweepTimer.unref();
  return {
    isRevoked: (id) => local.isRevoked(id),
    async revoke(id, until) {
      await local.revoke(id, until);
      await pool.query(
        "INSERT INTO mcp_revoked_sessions (id, until_ms, revoked_ms) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
        [id, until, Date.now()],
      );
    },
    async close() {
      clearInterval(pollTimer);
      clearInterval(sweepTimer);
      await local.close();
    },
  };
}
