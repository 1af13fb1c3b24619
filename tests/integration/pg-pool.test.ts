// The shared pool on a real PostgreSQL: a connection that ends while a client is checked out (a transaction
// between two statements) fails that transaction, and the process goes on with a working pool.
import assert from "node:assert/strict";
import { test } from "node:test";
import pg from "pg";
import { createPool, inTransaction } from "../../sidecar/db/pool.ts";
import { createTestDatabase } from "../helpers/pg.ts";
import { until } from "../helpers/until.ts";

test("a connection ended in the middle of a transaction fails it; no uncaught error, the pool recovers", async () => {
  const db = await createTestDatabase("pool");
  const pool = createPool(db.url, 2);
  const admin = new pg.Client(db.url);
  await admin.connect();
  try {
    const failed = await inTransaction(pool, async (client) => {
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      let ended = false;
      client.once("end", () => {
        ended = true;
      });
      await admin.query("SELECT pg_terminate_backend($1)", [rows[0].pid]);
      // The server's notice that it ended the connection arrives while no statement runs on this client: the
      // moment an 'error' event without a listener would have ended the process (and this test with it).
      await until("the ended connection to close on the client's side", () => ended);
      await client.query("SELECT 1");
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(failed instanceof Error, "the transaction fails");
    assert.match(failed.message, /terminat|not queryable|Connection/i);
    const { rows } = await pool.query<{ one: number }>("SELECT 1 AS one");
    assert.deepEqual(rows, [{ one: 1 }], "the next query gets a working connection");
  } finally {
    await admin.end();
    await pool.end();
    await db.drop();
  }
});
