// HubStore on PostgreSQL: several sidecars share it. Claims use FOR UPDATE SKIP LOCKED, so instances never
// take the same due row at once, and a claim is a time: one that outlives a dead instance is taken over.
// Most operations are one statement (one round trip); completions come in batches (one commit for many).
import { migrateSchema } from "../db/migrate.ts";
import { inTransaction, type Pool, pingDatabase } from "../db/pool.ts";
import { HUB_PG_SCHEMA, rowToDelivery, rowToPending, rowToSubscription } from "./hub-schema.ts";
import type { FailureOutcome, HubStore } from "./hub-store.ts";

const UPSERT = `INSERT INTO hub_subscriptions (topic, callback, secret, lease_seconds, expires_at, failures, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, 0, $6, $6)
  ON CONFLICT (topic, callback) DO UPDATE SET secret = excluded.secret, lease_seconds = excluded.lease_seconds,
    expires_at = excluded.expires_at, failures = 0, updated_at = excluded.updated_at`;

export async function openPgHubStore(pool: Pool): Promise<HubStore> {
  await migrateSchema(pool, HUB_PG_SCHEMA);
  const one = async <T>(sql: string, args: unknown[]): Promise<T | undefined> =>
    (await pool.query(sql, args)).rows[0] as T | undefined;

  const store: HubStore = {
    kind: "postgres",
    async addPending(req, host, now, limits) {
      // One statement: the counts and the insert see one snapshot (a race between instances can exceed the
      // bound by the number of instances, never more).
      const row = await one<{ full: string | null }>(
        `WITH counts AS (SELECT COUNT(*) AS total, COUNT(*) FILTER (WHERE callback_host = $4) AS host,
           COUNT(*) FILTER (WHERE topic = $2 AND callback = $3) AS same FROM hub_verifications),
         ins AS (
           INSERT INTO hub_verifications (mode, topic, callback, callback_host, secret, lease_seconds, next_at, created_at)
           SELECT $1, $2, $3, $4, $5, $6, $7, $7 FROM counts WHERE (total < $8 AND host < $9) OR same > 0
           ON CONFLICT (topic, callback) DO UPDATE SET mode = excluded.mode, secret = excluded.secret,
             lease_seconds = excluded.lease_seconds, generation = hub_verifications.generation + 1, attempts = 0
           RETURNING id)
         SELECT CASE WHEN EXISTS (SELECT 1 FROM ins) THEN NULL WHEN total >= $8 THEN 'all' ELSE 'host' END AS full FROM counts`,
        [req.mode, req.topic, req.callback, host, req.secret, req.leaseSeconds, now, limits.max, limits.maxPerHost],
      );
      return row?.full ? { ok: false, full: row.full === "all" ? "all" : "host" } : { ok: true };
    },
    async claimPending(now, claimUntil, limit) {
      const { rows } = await pool.query(
        `UPDATE hub_verifications SET next_at = $2 WHERE id IN (
           SELECT id FROM hub_verifications WHERE next_at <= $1 ORDER BY next_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [now, claimUntil, limit],
      );
      return rows.map(rowToPending);
    },
    async finishPending(p, verified, now) {
      await store.finishPendingBatch([{ p, verified }], now);
    },
    async finishPendingBatch(items, now) {
      if (items.length === 0) return;
      await inTransaction(pool, async (c) => {
        for (const { p, verified, retryAt } of items) {
          if (retryAt !== undefined) continue;
          if (verified && p.mode === "subscribe") {
            await c.query(UPSERT, [p.topic, p.callback, p.secret, p.leaseSeconds, now + p.leaseSeconds * 1000, now]);
          } else if (verified) {
            await c.query("DELETE FROM hub_subscriptions WHERE topic = $1 AND callback = $2", [p.topic, p.callback]);
          }
        }
        // Run ones are dropped, unanswered ones wait for their retry; a newer request for the same pair replaced
        // one of these meanwhile (its generation moved on): it runs next, with its own attempts.
        await c.query(
          `WITH done AS (SELECT * FROM unnest($1::bigint[], $2::int[], $3::bigint[]) AS t(id, generation, retry_at)),
           del AS (DELETE FROM hub_verifications v USING done
             WHERE v.id = done.id AND v.generation = done.generation AND done.retry_at IS NULL RETURNING v.id),
           retry AS (UPDATE hub_verifications v SET next_at = done.retry_at, attempts = v.attempts + 1 FROM done
             WHERE v.id = done.id AND v.generation = done.generation AND done.retry_at IS NOT NULL RETURNING v.id)
           UPDATE hub_verifications v SET next_at = $4 FROM done
           WHERE v.id = done.id AND v.id NOT IN (SELECT id FROM del UNION ALL SELECT id FROM retry)`,
          [items.map((i) => i.p.id), items.map((i) => i.p.generation), items.map((i) => i.retryAt ?? null), now],
        );
      });
    },
    async recordTopic(topic, sha256, now) {
      // The row lock taken by ON CONFLICT DO UPDATE serialises instances that load the same build: the first
      // one sees a change and enqueues, the others find the hash already recorded (no row returned). xmax = 0
      // marks a row that was inserted (the first record of a topic), which enqueues nothing.
      const row = await one<{ enqueued: number }>(
        `WITH upd AS (
           INSERT INTO hub_topic_state (topic, sha256, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (topic) DO UPDATE SET sha256 = excluded.sha256, updated_at = excluded.updated_at
           WHERE hub_topic_state.sha256 <> excluded.sha256
           RETURNING (xmax = 0) AS inserted),
         ins AS (
           INSERT INTO hub_deliveries (topic, callback, next_at, created_at, sha256)
           SELECT topic, callback, $3, $3, $2 FROM hub_subscriptions
           WHERE topic = $1 AND expires_at > $3 AND EXISTS (SELECT 1 FROM upd WHERE NOT inserted)
           ON CONFLICT (topic, callback) DO UPDATE SET sha256 = excluded.sha256, generation = hub_deliveries.generation + 1
           RETURNING 1)
         SELECT COUNT(*)::int AS enqueued FROM ins`,
        [topic, sha256, now],
      );
      return row?.enqueued ?? 0;
    },
    async claimDue(now, claimUntil, limit) {
      const { rows } = await pool.query(
        `WITH c AS (
           UPDATE hub_deliveries SET next_at = $2 WHERE id IN (
             SELECT id FROM hub_deliveries WHERE next_at <= $1 ORDER BY next_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
           RETURNING id, topic, callback, sha256, generation)
         SELECT c.*, s.secret, s.expires_at FROM c JOIN hub_subscriptions s USING (topic, callback)`,
        [now, claimUntil, limit],
      );
      return rows.map(rowToDelivery);
    },
    async nextDueAt(kind) {
      const deliveries = "(SELECT MIN(next_at) FROM hub_deliveries)";
      const verifications = "(SELECT MIN(next_at) FROM hub_verifications)";
      const next =
        kind === "deliveries"
          ? deliveries
          : kind === "verifications"
            ? verifications
            : `LEAST(${deliveries}, ${verifications})`;
      const row = await one<{ next: number | null }>(`SELECT ${next} AS next`, []);
      return row?.next == null ? undefined : Number(row.next);
    },
    async release(d, at) {
      await pool.query("UPDATE hub_deliveries SET next_at = $2 WHERE id = $1", [d.id, at]);
    },
    async delivered(d, now) {
      await store.deliveredBatch([d], now);
    },
    async deliveredBatch(ds, now) {
      if (ds.length === 0) return;
      // One statement: a row whose generation moved on (a newer change arrived in flight) stays, due now.
      // Subscriptions are touched only when they had failures, so a batch rarely locks them.
      await pool.query(
        `WITH done AS (SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[])
             AS t(id, generation, topic, callback)),
         del AS (DELETE FROM hub_deliveries d USING done WHERE d.id = done.id AND d.generation = done.generation
           RETURNING d.id),
         again AS (UPDATE hub_deliveries d SET next_at = $5 FROM done
           WHERE d.id = done.id AND d.id NOT IN (SELECT id FROM del) RETURNING 1)
         UPDATE hub_subscriptions s SET failures = 0 FROM done
         WHERE s.topic = done.topic AND s.callback = done.callback AND s.failures <> 0`,
        [ds.map((d) => d.id), ds.map((d) => d.generation), ds.map((d) => d.topic), ds.map((d) => d.callback), now],
      );
    },
    async failed(d, now, retryDelaysMs, maxFailures): Promise<FailureOutcome> {
      return inTransaction(pool, async (c) => {
        const { rows } = await c.query<{ failures: number }>(
          "UPDATE hub_subscriptions SET failures = failures + 1 WHERE topic = $1 AND callback = $2 RETURNING failures",
          [d.topic, d.callback],
        );
        const failures = rows[0]?.failures;
        if (failures === undefined || failures >= maxFailures) {
          await c.query("DELETE FROM hub_subscriptions WHERE topic = $1 AND callback = $2", [d.topic, d.callback]);
          return { removed: true };
        }
        const delay = retryDelaysMs[Math.min(failures - 1, retryDelaysMs.length - 1)] ?? 0;
        await c.query("UPDATE hub_deliveries SET next_at = $2 WHERE id = $1", [d.id, now + delay]);
        return { removed: false, retryAt: now + delay };
      });
    },
    async remove(topic, callback) {
      const r = await pool.query("DELETE FROM hub_subscriptions WHERE topic = $1 AND callback = $2", [topic, callback]);
      return (r.rowCount ?? 0) > 0;
    },
    async get(topic, callback) {
      const row = await one<Record<string, string | number | null>>(
        "SELECT * FROM hub_subscriptions WHERE topic = $1 AND callback = $2",
        [topic, callback],
      );
      return row ? rowToSubscription(row) : undefined;
    },
    async importSubscription(s, now) {
      const r = await pool.query(
        `INSERT INTO hub_subscriptions (topic, callback, secret, lease_seconds, expires_at, failures, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (topic, callback) DO NOTHING`,
        [s.topic, s.callback, s.secret, s.leaseSeconds, s.expiresAt, s.failures, s.createdAt, now],
      );
      return (r.rowCount ?? 0) > 0;
    },
    async sweepLapsed(now) {
      return (await pool.query("DELETE FROM hub_subscriptions WHERE expires_at <= $1", [now])).rowCount ?? 0;
    },
    async list() {
      const { rows } = await pool.query(
        `SELECT s.*, (SELECT COUNT(*)::int FROM hub_deliveries d WHERE d.topic = s.topic AND d.callback = s.callback) AS pending
         FROM hub_subscriptions s ORDER BY s.topic, s.callback`,
      );
      return rows.map((r) => ({ ...rowToSubscription(r), pending: Number(r.pending) }));
    },
    async stats() {
      const r = await one<Record<string, number>>(
        `SELECT (SELECT COUNT(*)::int FROM hub_subscriptions) AS subscriptions,
           (SELECT COUNT(*)::int FROM hub_deliveries) AS deliveries, (SELECT COUNT(*)::int FROM hub_verifications) AS verifications`,
        [],
      );
      return {
        subscriptions: Number(r?.subscriptions ?? 0),
        pendingDeliveries: Number(r?.deliveries ?? 0),
        pendingVerifications: Number(r?.verifications ?? 0),
      };
    },
    ping: () => pingDatabase(pool),
    // The pool is the process's (server.ts), shared with other stores: closing the hub leaves it open.
    async close() {},
  };
  return store;
}
