// HubStore on node:sqlite (WAL, synchronous=FULL: a committed subscription survives a crash).
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Delivery, FailureOutcome, HubStore, Subscription } from "./hub-store.ts";

/** Each entry migrates from version i to i + 1; PRAGMA user_version records where a database stands. */
const MIGRATIONS = [
  `CREATE TABLE subscriptions (
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     secret TEXT,
     lease_seconds INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     failures INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (topic, callback)
   );
   CREATE INDEX subscriptions_expires ON subscriptions (expires_at);
   CREATE TABLE deliveries (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     next_at INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     UNIQUE (topic, callback),
     FOREIGN KEY (topic, callback) REFERENCES subscriptions (topic, callback) ON DELETE CASCADE
   );
   CREATE INDEX deliveries_due ON deliveries (next_at);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function openSqliteHubStore(path: string): HubStore {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec(
    "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
  );
  const version = Number((db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version);
  if (version > SCHEMA_VERSION) {
    throw new Error(`${path} has hub schema version ${version}, newer than this sidecar's ${SCHEMA_VERSION}`);
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    db.exec("BEGIN");
    try {
      db.exec(MIGRATIONS[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec("COMMIT");
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    }
  }

  const q = {
    upsert:
      db.prepare(`INSERT INTO subscriptions (topic, callback, secret, lease_seconds, expires_at, failures, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, 0, ?, ?)
      ON CONFLICT (topic, callback) DO UPDATE SET secret = excluded.secret, lease_seconds = excluded.lease_seconds,
        expires_at = excluded.expires_at, failures = 0, updated_at = excluded.updated_at`),
    remove: db.prepare("DELETE FROM subscriptions WHERE topic = ? AND callback = ?"),
    get: db.prepare("SELECT * FROM subscriptions WHERE topic = ? AND callback = ?"),
    enqueue: db.prepare(`INSERT INTO deliveries (topic, callback, next_at, created_at)
      SELECT topic, callback, ?, ? FROM subscriptions WHERE topic = ? AND expires_at > ?
      ON CONFLICT (topic, callback) DO NOTHING`),
    due: db.prepare(`SELECT d.id, d.topic, d.callback, s.secret, s.expires_at FROM deliveries d
      JOIN subscriptions s ON s.topic = d.topic AND s.callback = d.callback
      WHERE d.next_at <= ? ORDER BY d.next_at, d.id LIMIT ?`),
    claim: db.prepare("UPDATE deliveries SET next_at = ? WHERE id = ?"),
    nextDue: db.prepare("SELECT MIN(next_at) AS next FROM deliveries"),
    deleteDelivery: db.prepare("DELETE FROM deliveries WHERE id = ?"),
    resetFailures: db.prepare("UPDATE subscriptions SET failures = 0 WHERE topic = ? AND callback = ?"),
    addFailure: db.prepare(
      "UPDATE subscriptions SET failures = failures + 1 WHERE topic = ? AND callback = ? RETURNING failures",
    ),
    sweep: db.prepare("DELETE FROM subscriptions WHERE expires_at <= ?"),
    list: db.prepare(`SELECT s.*, (SELECT COUNT(*) FROM deliveries d WHERE d.topic = s.topic AND d.callback = s.callback) AS pending
      FROM subscriptions s ORDER BY s.topic, s.callback`),
  };

  const tx = <T>(fn: () => T): T => {
    db.exec("BEGIN IMMEDIATE");
    try {
      const out = fn();
      db.exec("COMMIT");
      return out;
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    }
  };

  type Row = Record<string, string | number | null>;
  const toSubscription = (r: Row): Subscription => ({
    topic: String(r.topic),
    callback: String(r.callback),
    secret: r.secret === null ? null : String(r.secret),
    leaseSeconds: Number(r.lease_seconds),
    expiresAt: Number(r.expires_at),
    failures: Number(r.failures),
    createdAt: Number(r.created_at),
  });

  return {
    upsert: ({ topic, callback, secret, leaseSeconds, now }) =>
      void q.upsert.run(topic, callback, secret, leaseSeconds, now + leaseSeconds * 1000, now, now),
    remove: (topic, callback) => Number(q.remove.run(topic, callback).changes) > 0,
    get(topic, callback) {
      const row = q.get.get(topic, callback) as Row | undefined;
      return row ? toSubscription(row) : undefined;
    },
    enqueue: (topic, now) => Number(q.enqueue.run(now, now, topic, now).changes),
    claimDue(now, claimUntil, limit) {
      return tx(() => {
        const rows = q.due.all(now, limit) as Row[];
        for (const r of rows) q.claim.run(claimUntil, r.id);
        return rows.map(
          (r): Delivery => ({
            id: Number(r.id),
            topic: String(r.topic),
            callback: String(r.callback),
            secret: r.secret === null ? null : String(r.secret),
            expiresAt: Number(r.expires_at),
          }),
        );
      });
    },
    nextDueAt() {
      const next = (q.nextDue.get() as { next: number | null }).next;
      return next === null ? undefined : Number(next);
    },
    delivered(d) {
      tx(() => {
        q.deleteDelivery.run(d.id);
        q.resetFailures.run(d.topic, d.callback);
      });
    },
    failed(d, now, retryDelaysMs, maxFailures): FailureOutcome {
      return tx(() => {
        const row = q.addFailure.get(d.topic, d.callback) as { failures: number } | undefined;
        if (!row || row.failures >= maxFailures) {
          q.remove.run(d.topic, d.callback);
          return { removed: true };
        }
        const delay = retryDelaysMs[Math.min(row.failures - 1, retryDelaysMs.length - 1)] ?? 0;
        q.claim.run(now + delay, d.id);
        return { removed: false, retryAt: now + delay };
      });
    },
    sweepLapsed: (now) => Number(q.sweep.run(now).changes),
    list: () => (q.list.all() as Row[]).map((r) => ({ ...toSubscription(r), pending: Number(r.pending) })),
    close: () => db.close(),
  };
}
