// npm run hub -- backup FILE / restore FILE: every table the sidecar owns, as one JSON file, for the store in use
// (PostgreSQL with DATABASE_URL: the hub, the shared rate limits and the ended MCP sessions; else the hub's
// SQLite file in DATA_DIR). A restore recreates the tables at the backup's schema version, loads the rows and
// migrates them to this version; run it with the sidecars stopped. The file holds subscribers' secrets.
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import * as z from "zod";
import { migrate, type PgSchema } from "./db/migrate.ts";
import { RATE_LIMIT_SCHEMA } from "./db/pg-rate-limit-store.ts";
import { REVOCATION_SCHEMA } from "./db/pg-revocation-store.ts";
import { inTransaction, type Pool } from "./db/pool.ts";
import { HUB_PG_SCHEMA, HUB_SQLITE_MIGRATIONS, HUB_SQLITE_TABLES } from "./hub/hub-schema.ts";

export const PG_SCHEMAS: readonly PgSchema[] = [HUB_PG_SCHEMA, RATE_LIMIT_SCHEMA, REVOCATION_SCHEMA];

const Cell = z.union([z.string(), z.number(), z.null()]);
export const Backup = z.object({
  format: z.literal("reviews-sidecar-backup"),
  format_version: z.literal(1),
  store: z.enum(["postgres", "sqlite"]),
  created_at: z.string(),
  /** Schema version per component (SQLite: the hub's user_version). */
  versions: z.record(z.string(), z.int().nonnegative()),
  tables: z.record(z.string(), z.array(z.record(z.string(), Cell))),
});
export type Backup = z.infer<typeof Backup>;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export class BackupError extends Error {}

/** Reads a backup file's text; a message names what is wrong with it. */
export function parseBackup(text: string, file: string): Backup {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupError(`${file} is not JSON: not a backup made by npm run hub -- backup`);
  }
  const parsed = Backup.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupError(`${file} is not a sidecar backup: ${issue.path.join(".") || "file"}: ${issue.message}`);
  }
  for (const [table, rows] of Object.entries(parsed.data.tables)) {
    const bad = [table, ...rows.flatMap((r) => Object.keys(r))].find((n) => !IDENTIFIER.test(n));
    if (bad) throw new BackupError(`${file}: "${bad}" is not a table or column name of the sidecar`);
  }
  return parsed.data;
}

export async function backupPostgres(pool: Pool): Promise<Backup> {
  return inTransaction(pool, async (client) => {
    // One snapshot for every table: rows of different tables agree with each other.
    await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    const { rows: versions } = await client.query<{ component: string; v: number }>(
      "SELECT component, MAX(version) AS v FROM schema_migrations GROUP BY component",
    );
    const tables: Backup["tables"] = {};
    for (const schema of PG_SCHEMAS) {
      for (const table of schema.tables) tables[table] = (await client.query(`SELECT * FROM ${table}`)).rows;
    }
    return {
      format: "reviews-sidecar-backup" as const,
      format_version: 1 as const,
      store: "postgres" as const,
      created_at: new Date().toISOString(),
      versions: Object.fromEntries(versions.map((r) => [r.component, Number(r.v)])),
      tables,
    };
  });
}

/** Replaces every table the sidecar owns in the database with the backup's rows. */
export async function restorePostgres(pool: Pool, backup: Backup): Promise<Record<string, number>> {
  if (backup.store !== "postgres") {
    throw new BackupError(
      "This backup is of the embedded SQLite hub: restore it without DATABASE_URL, then copy it with npm run hub -- migrate --to postgres://…",
    );
  }
  const counts: Record<string, number> = {};
  for (const schema of PG_SCHEMAS) {
    const version = backup.versions[schema.component] ?? 0;
    if (version > schema.migrations.length) {
      throw new BackupError(
        `The backup has ${schema.component} schema version ${version}, newer than this sidecar's ${schema.migrations.length}: restore it with the version that made it.`,
      );
    }
  }
  await pool.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    component TEXT NOT NULL, version INTEGER NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (component, version))`);
  for (const schema of PG_SCHEMAS) {
    const version = backup.versions[schema.component] ?? 0;
    await inTransaction(pool, async (client) => {
      for (const t of schema.tables) await client.query(`DROP TABLE IF EXISTS ${t} CASCADE`);
      await client.query("DELETE FROM schema_migrations WHERE component = $1", [schema.component]);
    });
    // The tables as the backup knew them, its rows, then this version's migrations.
    await migrate(pool, schema.component, schema.migrations.slice(0, version));
    await inTransaction(pool, async (client) => {
      for (const table of schema.tables) {
        const rows = backup.tables[table] ?? [];
        for (const row of rows) {
          const columns = Object.keys(row);
          await client.query(
            `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
            columns.map((c) => row[c]),
          );
        }
        counts[table] = rows.length;
        // A BIGSERIAL goes on after the restored ids, so new rows never collide with them.
        const { rows: serial } = await client.query<{ seq: string | null }>(
          `SELECT pg_get_serial_sequence(table_name, column_name) AS seq FROM information_schema.columns
           WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'id'`,
          [table],
        );
        if (serial[0]?.seq && rows.length) {
          await client.query(`SELECT setval($1, (SELECT MAX(id) FROM ${table}))`, [serial[0].seq]);
        }
      }
    });
    await migrate(pool, schema.component, schema.migrations);
  }
  return counts;
}

export function backupSqlite(path: string): Backup {
  if (!existsSync(path))
    throw new BackupError(`No hub database at ${path} (it is created when the sidecar first starts).`);
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    db.exec("BEGIN");
    const version = Number((db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version);
    const tables: Backup["tables"] = {};
    for (const t of HUB_SQLITE_TABLES) {
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t);
      tables[t] = exists ? (db.prepare(`SELECT * FROM ${t}`).all() as Backup["tables"][string]) : [];
    }
    db.exec("COMMIT");
    return {
      format: "reviews-sidecar-backup",
      format_version: 1,
      store: "sqlite",
      created_at: new Date().toISOString(),
      versions: { hub: version },
      tables,
    };
  } finally {
    db.close();
  }
}

/** Writes the backup into a new SQLite file at `path` (the sidecar stopped); refuses to overwrite one. */
export function restoreSqlite(path: string, backup: Backup): Record<string, number> {
  if (backup.store !== "sqlite") {
    throw new BackupError("This backup is of PostgreSQL: restore it with DATABASE_URL set.");
  }
  if (existsSync(path)) {
    throw new BackupError(
      `${path} exists: move it (and any -wal and -shm files) away first, with the sidecar stopped.`,
    );
  }
  const version = backup.versions.hub ?? 0;
  if (version > HUB_SQLITE_MIGRATIONS.length) {
    throw new BackupError(
      `The backup has hub schema version ${version}, newer than this sidecar's ${HUB_SQLITE_MIGRATIONS.length}.`,
    );
  }
  mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  const counts: Record<string, number> = {};
  try {
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;");
    db.exec("BEGIN");
    for (let v = 0; v < HUB_SQLITE_MIGRATIONS.length; v++) {
      db.exec(HUB_SQLITE_MIGRATIONS[v]);
      // Rows go in at the backup's version, before the migrations it had not seen.
      if (v + 1 === version) insertSqliteRows(db, backup, counts);
    }
    if (version === 0) insertSqliteRows(db, backup, counts);
    db.exec(`PRAGMA user_version = ${HUB_SQLITE_MIGRATIONS.length}`);
    db.exec("COMMIT");
  } finally {
    db.close();
  }
  return counts;
}

function insertSqliteRows(db: DatabaseSync, backup: Backup, counts: Record<string, number>): void {
  for (const table of HUB_SQLITE_TABLES) {
    const rows = backup.tables[table] ?? [];
    for (const row of rows) {
      const columns = Object.keys(row);
      db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(
        ...columns.map((c) => row[c]),
      );
    }
    counts[table] = rows.length;
  }
}
