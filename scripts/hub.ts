// npm run hub -- list [--json]: the operator's view of the WebSub hub (no public endpoint shows this).
// npm run hub -- migrate --to postgres://…: copies the embedded SQLite hub (DATA_DIR) into PostgreSQL.
// npm run hub -- backup FILE | restore FILE [--replace]: every table the sidecar owns (sidecar/backup.ts).
import "../src/require-node-version.ts";
import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import {
  BackupError,
  backupPostgres,
  backupSqlite,
  parseBackup,
  restorePostgres,
  restoreSqlite,
} from "../sidecar/backup.ts";
import { createPool } from "../sidecar/db/pool.ts";
import { hubStorePath, openHubStore } from "../sidecar/hub/hub.ts";
import type { HubStore } from "../sidecar/hub/hub-store.ts";
import { migrateHubStore } from "../sidecar/hub/migrate-hub.ts";
import { openSqliteHubStore } from "../sidecar/hub/sqlite-hub-store.ts";
import { loadConfig } from "../src/config.ts";

const USAGE =
  "usage: npm run hub -- list [--json] | migrate --to postgres://… | backup FILE | restore FILE [--replace]";
const [command = "list", ...flags] = process.argv.slice(2);
const config = loadConfig();
const sqlitePath = hubStorePath(config);

async function list(store: HubStore, where: string) {
  const subs = await store.list();
  const now = Date.now();
  const rows = subs.map((s) => ({
    topic: s.topic,
    callback: s.callback,
    expires: new Date(s.expiresAt).toISOString(),
    active: s.expiresAt > now,
    lease_seconds: s.leaseSeconds,
    failures: s.failures,
    pending_deliveries: s.pending,
    signed: s.secret !== null,
  }));
  if (flags.includes("--json")) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  console.log(`${rows.length} subscription(s) in ${where}`);
  for (const t of new Set(rows.map((r) => r.topic))) {
    const of = rows.filter((r) => r.topic === t);
    console.log(
      `\n${t}: ${of.filter((r) => r.active).length} active, ${of.filter((r) => r.failures > 0).length} failing, ${of.reduce((s, r) => s + r.pending_deliveries, 0)} pending`,
    );
    for (const r of of)
      console.log(
        `  ${r.callback}  expires ${r.expires}  failures ${r.failures}  pending ${r.pending_deliveries}${r.signed ? "  signed" : ""}`,
      );
  }
}

function requireSqlite() {
  if (!existsSync(sqlitePath)) {
    console.error(`No hub database at ${sqlitePath} yet (it is created when the sidecar first starts).`);
    process.exit(1);
  }
}

if (command === "list") {
  const pool = config.DATABASE_URL ? createPool(config.DATABASE_URL, 1) : undefined;
  if (!pool) requireSqlite();
  const store = await openHubStore(config, pool);
  try {
    await list(store, pool ? "PostgreSQL (DATABASE_URL)" : sqlitePath);
  } finally {
    await store.close();
    await pool?.end();
  }
} else if (command === "migrate") {
  const to = flags[flags.indexOf("--to") + 1];
  if (!flags.includes("--to") || !to || !/^postgres(ql)?:\/\//.test(to)) {
    console.error(USAGE);
    process.exit(2);
  }
  requireSqlite();
  const from = openSqliteHubStore(sqlitePath);
  const pool = createPool(to, 2);
  try {
    const target = await openHubStore(config, pool);
    const report = await migrateHubStore(from, target, Date.now());
    console.log(
      `Copied ${report.copied} subscription(s) from ${sqlitePath} to PostgreSQL; ${report.existing} were already there.`,
    );
  } catch (e) {
    console.error(`hub migrate failed: ${(e as Error).message}`);
    process.exitCode = 1;
  } finally {
    await from.close();
    await pool.end();
  }
} else if (command === "backup" || command === "restore") {
  const file = flags.find((f) => !f.startsWith("--"));
  if (!file) {
    console.error(USAGE);
    process.exit(2);
  }
  const pool = config.DATABASE_URL ? createPool(config.DATABASE_URL, 2) : undefined;
  const where = pool ? "PostgreSQL (DATABASE_URL)" : sqlitePath;
  try {
    if (command === "backup") {
      const backup = pool ? await backupPostgres(pool) : backupSqlite(sqlitePath);
      // Written beside the target and renamed: an interrupted backup never leaves a truncated file under FILE.
      await writeFile(`${file}.tmp`, JSON.stringify(backup), { mode: 0o600 });
      await rename(`${file}.tmp`, file);
      const rows = Object.entries(backup.tables).map(([t, r]) => `${t} ${r.length}`);
      console.log(
        `Backed up ${where} to ${file} (${rows.join(", ")}). It holds subscribers' secrets: keep it private.`,
      );
    } else {
      const text = await readFile(file, "utf8").catch((e: NodeJS.ErrnoException) => {
        throw new BackupError(`Cannot read ${file}: ${e.code ?? e.message}`);
      });
      const backup = parseBackup(text, file);
      if (pool && !flags.includes("--replace")) {
        const { rows } = await pool
          .query<{ n: number }>("SELECT COUNT(*)::int AS n FROM hub_subscriptions")
          .catch(() => ({ rows: [{ n: 0 }] }));
        if (rows[0].n > 0) {
          throw new BackupError(
            `The database already holds ${rows[0].n} subscription(s): stop every sidecar and add --replace to overwrite them.`,
          );
        }
      }
      const counts = pool ? await restorePostgres(pool, backup) : restoreSqlite(sqlitePath, backup);
      const rows = Object.entries(counts).map(([t, n]) => `${t} ${n}`);
      console.log(`Restored ${file} into ${where} (${rows.join(", ")}).`);
    }
  } catch (e) {
    console.error(`hub ${command} failed: ${(e as Error).message}`);
    process.exitCode = 1;
  } finally {
    await pool?.end();
  }
} else {
  console.error(USAGE);
  process.exit(2);
}
