// The hub's state on node:sqlite (WAL, synchronous=FULL: a committed row survives a crash and a power cut). One
// instance only. The operations are synchronous (node:sqlite is); the sidecar runs them on a worker thread
// (sqlite-worker-store.ts) so the event loop never waits for an fsync, and `openSqliteHubStore` runs them in the
// calling thread for the command line, migrations and tests. Inside `batch`, each operation is its own savepoint
// and the batch one commit (group commit): one fsync for every operation that arrived while the last one ran.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { HUB_SQLITE_MIGRATIONS, type Row, rowToDelivery, rowToPending, rowToSubscription } from "./hub-schema.ts";
import type { Delivery, FailureOutcome, HubStore, PendingVerification } from "./hub-store.ts";

export const SCHEMA_VERSION = HUB_SQLITE_MIGRATIONS.length;

function openDatabase(path: string): DatabaseSync {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec(
    "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
  );
  // The hub's data is small: checkpoint the WAL every 32 pages and truncate it back to 128 KiB, so it never
  // grows to SQLite's default 4 MB (on a nearly full disk that is the difference between working and not).
  db.exec("PRAGMA wal_autocheckpoint = 32; PRAGMA journal_size_limit = 131072;");
  const version = Number((db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version);
  if (version > SCHEMA_VERSION) {
    throw new Error(`${path} has hub schema version ${version}, newer than this sidecar's ${SCHEMA_VERSION}`);
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    db.exec("BEGIN");
    try {
      db.exec(HUB_SQLITE_MIGRATIONS[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec("COMMIT");
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    }
  }
  return db;
}

/** An operation failed in a way that ended its batch's transaction: none of the batch is stored. */
export class BatchAborted extends Error {
  constructor(cause: unknown) {
    super((cause as Error).message, { cause });
  }
}

/** A HubStore method that answers at once instead of with a promise. */
type Sync<F> = F extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
export type HubOperation = Exclude<keyof HubStore, "kind">;
export type SqliteHubOps = { [K in HubOperation]: Sync<HubStore[K]> } & {
  /** Runs `fn` in one transaction; operations inside it commit with it. */
  batch<T>(fn: () => T): T;
  /** Runs `fn` so that a throw undoes its writes only, not the batch's others. */
  isolated<T>(fn: () => T): T;
};

export function openSqliteHubStore(path: string): HubStore {
  const ops = openSqliteHubOps(path);
  const call =
    <K extends HubOperation>(k: K) =>
    async (...args: Parameters<SqliteHubOps[K]>) =>
      (ops[k] as (...a: unknown[]) => unknown)(...args);
  const store = { kind: "sqlite" } as Record<string, unknown>;
  for (const k of Object.keys(ops) as (HubOperation | "batch" | "isolated")[]) {
    if (k !== "batch" && k !== "isolated") store[k] = call(k);
  }
  return store as unknown as HubStore;
}

export function openSqliteHubOps(path: string): SqliteHubOps {
  const db = openDatabase(path);
  const q = Object.fromEntries(
    Object.entries({
      pendingCount: "SELECT COUNT(*) AS n FROM verifications",
      pendingHostCount: "SELECT COUNT(*) AS n FROM verifications WHERE callback_host = ?",
      pendingPair: "SELECT COUNT(*) AS n FROM verifications WHERE topic = ? AND callback = ?",
      addPending: `INSERT INTO verifications (mode, topic, callback, callback_host, secret, lease_seconds, next_at, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (topic, callback) DO UPDATE SET mode = excluded.mode, secret = excluded.secret,
          lease_seconds = excluded.lease_seconds, generation = verifications.generation + 1, attempts = 0`,
      duePending: "SELECT * FROM verifications WHERE next_at <= ? ORDER BY next_at, id LIMIT ?",
      setPendingNext: "UPDATE verifications SET next_at = ? WHERE id = ?",
      dropPending: "DELETE FROM verifications WHERE id = ? AND generation = ?",
      retryPending: "UPDATE verifications SET next_at = ?, attempts = attempts + 1 WHERE id = ? AND generation = ?",
      upsert: `INSERT INTO subscriptions (topic, callback, secret, lease_seconds, expires_at, failures, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, 0, ?, ?)
        ON CONFLICT (topic, callback) DO UPDATE SET secret = excluded.secret, lease_seconds = excluded.lease_seconds,
          expires_at = excluded.expires_at, failures = 0, updated_at = excluded.updated_at`,
      importSub: `INSERT INTO subscriptions (topic, callback, secret, lease_seconds, expires_at, failures, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (topic, callback) DO NOTHING`,
      remove: "DELETE FROM subscriptions WHERE topic = ? AND callback = ?",
      get: "SELECT * FROM subscriptions WHERE topic = ? AND callback = ?",
      topicState: "SELECT sha256 FROM topic_state WHERE topic = ?",
      setTopic: `INSERT INTO topic_state (topic, sha256, updated_at) VALUES (?, ?, ?)
        ON CONFLICT (topic) DO UPDATE SET sha256 = excluded.sha256, updated_at = excluded.updated_at`,
      enqueue: `INSERT INTO deliveries (topic, callback, next_at, created_at, sha256)
        SELECT topic, callback, ?, ?, ? FROM subscriptions WHERE topic = ? AND expires_at > ?
        ON CONFLICT (topic, callback) DO UPDATE SET sha256 = excluded.sha256, generation = deliveries.generation + 1`,
      due: `SELECT d.id, d.topic, d.callback, d.sha256, d.generation, s.secret, s.expires_at FROM deliveries d
        JOIN subscriptions s ON s.topic = d.topic AND s.callback = d.callback
        WHERE d.next_at <= ? ORDER BY d.next_at, d.id LIMIT ?`,
      setNext: "UPDATE deliveries SET next_at = ? WHERE id = ?",
      nextDue:
        "SELECT MIN(n) AS next FROM (SELECT MIN(next_at) AS n FROM deliveries UNION ALL SELECT MIN(next_at) FROM verifications)",
      nextDelivery: "SELECT MIN(next_at) AS next FROM deliveries",
      nextVerification: "SELECT MIN(next_at) AS next FROM verifications",
      deleteDelivery: "DELETE FROM deliveries WHERE id = ? AND generation = ?",
      resetFailures: "UPDATE subscriptions SET failures = 0 WHERE topic = ? AND callback = ? AND failures <> 0",
      addFailure:
        "UPDATE subscriptions SET failures = failures + 1 WHERE topic = ? AND callback = ? RETURNING failures",
      sweep: "DELETE FROM subscriptions WHERE expires_at <= ?",
      list: `SELECT s.*, (SELECT COUNT(*) FROM deliveries d WHERE d.topic = s.topic AND d.callback = s.callback) AS pending
        FROM subscriptions s ORDER BY s.topic, s.callback`,
      stats: `SELECT (SELECT COUNT(*) FROM subscriptions) AS subscriptions, (SELECT COUNT(*) FROM deliveries) AS deliveries,
        (SELECT COUNT(*) FROM verifications) AS verifications`,
    }).map(([k, sql]) => [k, db.prepare(sql)]),
  );

  let savepoints = 0;
  const isolated = <T>(fn: () => T): T => {
    const name = `op${savepoints++}`;
    db.exec(`SAVEPOINT ${name}`);
    try {
      const out = fn();
      db.exec(`RELEASE ${name}`);
      return out;
    } catch (e) {
      // Some errors (a full disk among them) roll the whole transaction back: the batch is lost, not just this.
      if (!db.isTransaction) throw new BatchAborted(e);
      db.exec(`ROLLBACK TO ${name}`);
      db.exec(`RELEASE ${name}`);
      throw e;
    } finally {
      savepoints--;
    }
  };
  const tx = <T>(fn: () => T): T => {
    // Inside a batch: a savepoint, so a failing operation leaves the batch's others to commit.
    if (db.isTransaction) return isolated(fn);
    db.exec("BEGIN IMMEDIATE");
    try {
      const out = fn();
      db.exec("COMMIT");
      return out;
    } catch (e) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw e;
    }
  };
  const count = (stmt: string, ...args: (string | number)[]) => Number((q[stmt].get(...args) as Row).n);

  const finish = (p: PendingVerification, verified: boolean, now: number, retryAt?: number) => {
    if (retryAt !== undefined) {
      if (Number(q.retryPending.run(retryAt, p.id, p.generation).changes) === 0) q.setPendingNext.run(now, p.id);
      return;
    }
    if (verified && p.mode === "subscribe") {
      q.upsert.run(p.topic, p.callback, p.secret, p.leaseSeconds, now + p.leaseSeconds * 1000, now, now);
    } else if (verified) {
      q.remove.run(p.topic, p.callback);
    }
    // A newer request for the same pair replaced this one meanwhile: it runs next.
    if (Number(q.dropPending.run(p.id, p.generation).changes) === 0) q.setPendingNext.run(now, p.id);
  };
  const delivered = (d: Delivery, now: number) => {
    // A newer change arrived while this one was in flight: the row stays, due now, for the newest content.
    if (Number(q.deleteDelivery.run(d.id, d.generation).changes) === 0) q.setNext.run(now, d.id);
    q.resetFailures.run(d.topic, d.callback);
  };

  const ops: SqliteHubOps = {
    batch: tx,
    isolated,
    addPending(req, host, now, limits) {
      return tx(() => {
        // Replacing a request that waits for the same pair takes no new place.
        if (count("pendingPair", req.topic, req.callback) === 0) {
          if (count("pendingCount") >= limits.max) return { ok: false, full: "all" } as const;
          if (count("pendingHostCount", host) >= limits.maxPerHost) return { ok: false, full: "host" } as const;
        }
        q.addPending.run(req.mode, req.topic, req.callback, host, req.secret, req.leaseSeconds, now, now);
        return { ok: true } as const;
      });
    },
    claimPending(now, claimUntil, limit) {
      return tx(() => {
        const rows = q.duePending.all(now, limit) as Row[];
        for (const r of rows) q.setPendingNext.run(claimUntil, r.id);
        return rows.map(rowToPending);
      });
    },
    finishPending(p, verified, now) {
      tx(() => finish(p, verified, now));
    },
    finishPendingBatch(items, now) {
      tx(() => {
        for (const { p, verified, retryAt } of items) finish(p, verified, now, retryAt);
      });
    },
    recordTopic(topic, sha256, now) {
      return tx(() => {
        const row = q.topicState.get(topic) as Row | undefined;
        if (row?.sha256 === sha256) return 0;
        q.setTopic.run(topic, sha256, now);
        return row ? Number(q.enqueue.run(now, now, sha256, topic, now).changes) : 0;
      });
    },
    claimDue(now, claimUntil, limit) {
      return tx(() => {
        const rows = q.due.all(now, limit) as Row[];
        for (const r of rows) q.setNext.run(claimUntil, r.id);
        return rows.map(rowToDelivery);
      });
    },
    nextDueAt(kind) {
      const query = kind === "deliveries" ? q.nextDelivery : kind === "verifications" ? q.nextVerification : q.nextDue;
      const next = (query.get() as { next: number | null }).next;
      return next === null ? undefined : Number(next);
    },
    release(d, at) {
      q.setNext.run(at, d.id);
    },
    delivered(d, now) {
      tx(() => delivered(d, now));
    },
    deliveredBatch(ds, now) {
      tx(() => {
        for (const d of ds) delivered(d, now);
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
        q.setNext.run(now + delay, d.id);
        return { removed: false, retryAt: now + delay };
      });
    },
    remove(topic, callback) {
      return Number(q.remove.run(topic, callback).changes) > 0;
    },
    get(topic, callback) {
      const row = q.get.get(topic, callback) as Row | undefined;
      return row ? rowToSubscription(row) : undefined;
    },
    importSubscription(s, now) {
      const r = q.importSub.run(
        s.topic,
        s.callback,
        s.secret,
        s.leaseSeconds,
        s.expiresAt,
        s.failures,
        s.createdAt,
        now,
      );
      return Number(r.changes) > 0;
    },
    sweepLapsed(now) {
      return Number(q.sweep.run(now).changes);
    },
    list() {
      return (q.list.all() as Row[]).map((r) => ({ ...rowToSubscription(r), pending: Number(r.pending) }));
    },
    stats() {
      const r = q.stats.get() as Row;
      return {
        subscriptions: Number(r.subscriptions),
        pendingDeliveries: Number(r.deliveries),
        pendingVerifications: Number(r.verifications),
      };
    },
    ping() {
      return null;
    },
    close() {
      db.close();
    },
  };
  return ops;
}
