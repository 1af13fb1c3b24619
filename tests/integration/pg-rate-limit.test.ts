// The shared rate-limit store on a fresh PostgreSQL database: opening it applies its migration (under the lock
// every store migrates under, also when two instances open it at once), and both instances count in one window.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Options } from "express-rate-limit";
import { pino } from "pino";
import { pgRateLimitStores, RateLimitUnavailable } from "../../sidecar/db/pg-rate-limit-store.ts";
import { createPool } from "../../sidecar/db/pool.ts";
import { createTestDatabase } from "../helpers/pg.ts";

test("opening the store migrates its table once; two instances count in the same window", async () => {
  const db = await createTestDatabase("ratelimit");
  const pools = [createPool(db.url), createPool(db.url)];
  try {
    const [a, b] = await Promise.all(pools.map((p) => pgRateLimitStores(p, pino({ level: "silent" }))));
    const { rows } = await pools[0].query("SELECT component, version FROM schema_migrations ORDER BY component");
    assert.deepEqual(rows, [{ component: "rate_limits", version: 1 }]);
    const stores = [a.store("hub-client"), b.store("hub-client")];
    for (const s of stores) s.init?.({ windowMs: 60_000 } as Options);
    const hits: number[] = [];
    for (let i = 0; i < 6; i++) hits.push((await stores[i % 2].increment("203.0.113.9")).totalHits);
    assert.deepEqual(hits, [1, 2, 3, 4, 5, 6]);
    assert.equal(
      (await b.store("hub-callback").increment("203.0.113.9")).totalHits,
      1,
      "another prefix, another count",
    );
    assert.equal(await a.problem(), null);
  } finally {
    await Promise.all(pools.map((p) => p.end()));
    await db.drop();
  }
});

test("a store whose table is gone throws RateLimitUnavailable, reports the problem and logs once a minute", async () => {
  const db = await createTestDatabase("ratelimit");
  const pool = createPool(db.url);
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  try {
    const limits = await pgRateLimitStores(pool, logger);
    const store = limits.store("hub-client");
    store.init?.({ windowMs: 60_000 } as Options);
    await pool.query("DROP TABLE rate_limits");
    for (let i = 0; i < 5; i++) await assert.rejects(async () => store.increment("203.0.113.9"), RateLimitUnavailable);
    assert.match((await limits.problem()) ?? "", /rate limits unavailable: .*rate_limits/);
    const logged = lines.filter((l) => l.event === "rate_limit.store_failed");
    assert.equal(logged.length, 1, "one line, not one per request");
    assert.equal(typeof logged[0].err, "string");
  } finally {
    await pool.end();
    await db.drop();
  }
});
