// npm run hub -- backup / restore: every table the sidecar owns, round trips on PostgreSQL and SQLite; a partial
// restore (tables missing while schema_migrations lists them) is repaired where the data may be lost and refused,
// naming the way out, where it may not.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { pino } from "pino";
import { PG_SCHEMAS } from "../../sidecar/backup.ts";
import { migrateSchema } from "../../sidecar/db/migrate.ts";
import { pgRateLimitStores } from "../../sidecar/db/pg-rate-limit-store.ts";
import { createPool, type Pool } from "../../sidecar/db/pool.ts";
import { HUB_SQLITE_TABLES } from "../../sidecar/hub/hub-schema.ts";
import { openPgHubStore } from "../../sidecar/hub/pg-hub-store.ts";
import { openSqliteHubStore } from "../../sidecar/hub/sqlite-hub-store.ts";
import { runScript } from "../helpers/build.ts";
import { tempDir } from "../helpers/paths.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/pg.ts";

const TABLES = PG_SCHEMAS.flatMap((s) => s.tables);
const hub = (args: string[], env: Record<string, string>) => runScript("scripts/hub.ts", args, env);

async function fill(pool: Pool): Promise<void> {
  for (const schema of PG_SCHEMAS) await migrateSchema(pool, schema);
  const t = 1_900_000_000_000;
  await pool.query(
    `INSERT INTO hub_subscriptions VALUES ('https://r.example/feed.json', 'https://sub.example/cb', 's3cret', 864000, $1, 1, $1, $1)`,
    [t],
  );
  await pool.query(
    `INSERT INTO hub_deliveries (topic, callback, next_at, created_at, sha256, generation) VALUES ('https://r.example/feed.json', 'https://sub.example/cb', $1, $1, 'abc', 2)`,
    [t],
  );
  await pool.query(`INSERT INTO hub_topic_state VALUES ('https://r.example/feed.json', 'abc', $1)`, [t]);
  await pool.query(
    `INSERT INTO hub_verifications (mode, topic, callback, callback_host, secret, lease_seconds, next_at, created_at) VALUES ('subscribe', 'https://r.example/feed.json', 'https://other.example/cb', 'other.example', NULL, 3600, $1, $1)`,
    [t],
  );
  await pool.query("INSERT INTO rate_limits VALUES ('hub-client:198.51.100.1', 3, $1)", [t]);
  await pool.query("INSERT INTO mcp_revoked_sessions VALUES ('session-1', $1, $1)", [t]);
}

async function dump(pool: Pool): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES) out[t] = (await pool.query(`SELECT * FROM ${t} ORDER BY 1, 2`)).rows;
  return out;
}

test("PostgreSQL: backup and restore into a fresh database give every table back", async () => {
  const dbs: TestDatabase[] = [await createTestDatabase("bk"), await createTestDatabase("bk")];
  const pools = dbs.map((d) => createPool(d.url, 2));
  try {
    await fill(pools[0]);
    const file = join(await tempDir("backup"), "hub.json");
    const backup = await hub(["backup", file], { DATABASE_URL: dbs[0].url });
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /rate_limits 1.*mcp_revoked_sessions 1/);
    const restore = await hub(["restore", file], { DATABASE_URL: dbs[1].url });
    assert.equal(restore.code, 0, restore.stderr);
    assert.deepEqual(await dump(pools[1]), await dump(pools[0]));
    // The restored database is one a sidecar opens, and new rows get ids after the restored ones.
    await openPgHubStore(pools[1]);
    const { rows } = await pools[1].query(
      `INSERT INTO hub_verifications (mode, topic, callback, callback_host, secret, lease_seconds, next_at, created_at) VALUES ('subscribe', 't', 'c', 'h', NULL, 1, 1, 1) RETURNING id`,
    );
    assert.ok(Number(rows[0].id) > 1);

    const again = await hub(["restore", file], { DATABASE_URL: dbs[1].url });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already holds 1 subscription\(s\).*--replace/);
    assert.equal((await hub(["restore", file, "--replace"], { DATABASE_URL: dbs[1].url })).code, 0);
    assert.deepEqual(await dump(pools[1]), await dump(pools[0]));
  } finally {
    await Promise.all(pools.map((p) => p.end()));
    for (const d of dbs) await d.drop();
  }
});

test("a partial restore: lost rate limits are recreated, a lost hub table is refused with what to do", async () => {
  const db = await createTestDatabase("bk");
  const pool = createPool(db.url, 2);
  try {
    await fill(pool);
    await pool.query("DROP TABLE rate_limits");
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: "info" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const limits = await pgRateLimitStores(pool, logger);
    assert.equal(await limits.problem(), null, "the table is back");
    assert.ok(lines.some((l) => l.event === "db.schema_repaired" && l.component === "rate_limits"));

    await pool.query("DROP TABLE hub_deliveries");
    await assert.rejects(openPgHubStore(pool), (e: Error) => {
      assert.match(e.message, /hub_deliveries is missing/);
      assert.match(e.message, /npm run hub -- restore/);
      return true;
    });
  } finally {
    await pool.end();
    await db.drop();
  }
});

test("SQLite: backup and restore into a new DATA_DIR; an existing file is not overwritten", async () => {
  const from = join(await tempDir("bk-sqlite"), "data");
  const store = openSqliteHubStore(join(from, "hub.sqlite"));
  await store.close();
  const db = new DatabaseSync(join(from, "hub.sqlite"));
  db.exec(`INSERT INTO subscriptions VALUES ('t', 'https://sub.example/cb', 'x', 3600, 1900000000000, 0, 1, 1);
    INSERT INTO deliveries (topic, callback, next_at, created_at, sha256, generation) VALUES ('t', 'https://sub.example/cb', 5, 5, 'h', 1);
    INSERT INTO topic_state VALUES ('t', 'h', 5);`);
  db.close();
  const file = join(await tempDir("backup"), "hub.json");
  const backup = await hub(["backup", file], { DATA_DIR: from, DATABASE_URL: "" });
  assert.equal(backup.code, 0, backup.stderr);
  const to = join(await tempDir("bk-sqlite"), "data");
  const restore = await hub(["restore", file], { DATA_DIR: to, DATABASE_URL: "" });
  assert.equal(restore.code, 0, restore.stderr);
  const rows = (dir: string) => {
    const d = new DatabaseSync(join(dir, "hub.sqlite"), { readOnly: true });
    try {
      return Object.fromEntries(HUB_SQLITE_TABLES.map((t) => [t, d.prepare(`SELECT * FROM ${t} ORDER BY 1`).all()]));
    } finally {
      d.close();
    }
  };
  assert.deepEqual(rows(to), rows(from));
  assert.equal((rows(to).subscriptions as unknown[]).length, 1);
  const again = await hub(["restore", file], { DATA_DIR: to, DATABASE_URL: "" });
  assert.equal(again.code, 1);
  assert.match(again.stderr, /exists: move it/);
});

test("restoring a file that is not a backup names the file and what is wrong, without a stack trace", async () => {
  const file = join(await tempDir("backup"), "not-a-backup.json");
  await writeFile(file, JSON.stringify({ hello: "world" }));
  const run = await hub(["restore", file], { DATA_DIR: join(await tempDir("bk"), "data"), DATABASE_URL: "" });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /not-a-backup\.json is not a sidecar backup: format/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
});
