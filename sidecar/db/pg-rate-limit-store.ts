// An express-rate-limit Store on PostgreSQL: every instance counts in one table, so a limit of 10 per minute
// is 10 per minute across all sidecars. Fixed windows, one statement (one round trip) per counted request.
// A store that fails (the database down, the table missing after a partial restore) throws RateLimitUnavailable,
// which the route answers with 503 and Retry-After; it is logged once a minute at most. Readiness probes the
// table (`problem`), so a table lost to a partial restore shows as a degraded dependency before any request.
import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";
import type { Logger } from "../logger.ts";
import { migrateSchema, type PgSchema } from "./migrate.ts";
import type { Pool } from "./pool.ts";

export class RateLimitUnavailable extends Error {}

/** How often a failing store is logged. */
const REPORT_MS = 60_000;

export interface SharedRateLimits {
  store(prefix: string): Store;
  /** Null when the table answers, else why not. */
  problem(): Promise<string | null>;
}

/** Counters of the current minute: a lost table is recreated empty. */
export const RATE_LIMIT_SCHEMA: PgSchema = {
  component: "rate_limits",
  migrations: [
    `CREATE TABLE rate_limits (key TEXT PRIMARY KEY, hits INTEGER NOT NULL, reset_at BIGINT NOT NULL);
     CREATE INDEX rate_limits_reset ON rate_limits (reset_at);`,
  ],
  tables: ["rate_limits"],
  whenMissing: "recreate",
};

/** Applies the table's migrations (under the migration lock, like every store), then makes stores by prefix. */
export async function pgRateLimitStores(pool: Pool, logger: Logger): Promise<SharedRateLimits> {
  await migrateSchema(pool, RATE_LIMIT_SCHEMA, (message) =>
    logger.warn({ event: "db.schema_repaired", component: "rate_limits" }, message),
  );
  let lastLogged = 0;
  let unlogged = 0;
  const failed = (e: unknown): never => {
    const message = (e as Error).message;
    unlogged++;
    if (Date.now() - lastLogged >= REPORT_MS) {
      logger.error(
        { event: "rate_limit.store_failed", err: message, failures: unlogged },
        "the shared rate-limit store fails; rate-limited requests answer 503",
      );
      lastLogged = Date.now();
      unlogged = 0;
    }
    throw new RateLimitUnavailable(message);
  };
  return {
    store: (prefix) => guarded(new PgRateLimitStore(pool, prefix), failed),
    problem: () =>
      pool.query("SELECT 1 FROM rate_limits LIMIT 0").then(
        () => null,
        (e: Error) => `rate limits unavailable: ${e.message}`,
      ),
  };
}

/** The store with every database call's failure passed to `failed`. */
function guarded(store: PgRateLimitStore, failed: (e: unknown) => never): Store {
  return {
    localKeys: store.localKeys,
    prefix: store.prefix,
    init: (options) => store.init(options),
    get: (key) => store.get(key).catch(failed),
    increment: (key) => store.increment(key).catch(failed),
    decrement: (key) => store.decrement(key).catch(failed),
    resetKey: (key) => store.resetKey(key).catch(failed),
  };
}

class PgRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  #windowMs = 60_000;
  #pool: Pool;
  #counted = 0;

  constructor(pool: Pool, prefix: string) {
    this.#pool = pool;
    this.prefix = `${prefix}:`;
  }

  init(options: Options): void {
    this.#windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const { rows } = await this.#pool.query<{ hits: number; reset_at: number }>(
      "SELECT hits, reset_at FROM rate_limits WHERE key = $1 AND reset_at > $2",
      [this.prefix + key, Date.now()],
    );
    return rows[0] && { totalHits: rows[0].hits, resetTime: new Date(Number(rows[0].reset_at)) };
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const now = Date.now();
    // Now and then, forget windows that ended (any instance may do it; it is idempotent).
    if (++this.#counted % 1000 === 0)
      void this.#pool.query("DELETE FROM rate_limits WHERE reset_at <= $1", [now]).catch(() => undefined);
    const { rows } = await this.#pool.query<{ hits: number; reset_at: number }>(
      `INSERT INTO rate_limits AS r (key, hits, reset_at) VALUES ($1, 1, $2)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.reset_at <= $3 THEN 1 ELSE r.hits + 1 END,
         reset_at = CASE WHEN r.reset_at <= $3 THEN $2 ELSE r.reset_at END
       RETURNING hits, reset_at`,
      [this.prefix + key, now + this.#windowMs, now],
    );
    return { totalHits: rows[0].hits, resetTime: new Date(Number(rows[0].reset_at)) };
  }

  async decrement(key: string): Promise<void> {
    await this.#pool.query("UPDATE rate_limits SET hits = GREATEST(hits - 1, 0) WHERE key = $1", [this.prefix + key]);
  }

  async resetKey(key: string): Promise<void> {
    await this.#pool.query("DELETE FROM rate_limits WHERE key = $1", [this.prefix + key]);
  }
}
