// The hub's tables, as versioned migrations: SQLite (PRAGMA user_version) and PostgreSQL (sidecar/db/migrate.ts).
// Each entry migrates from version i to i + 1; never edit an entry that has shipped, append one.

import type { PgSchema } from "../db/migrate.ts";
import type { Delivery, PendingVerification, Subscription } from "./hub-store.ts";

/** A row as either database returns it; both schemas use the same column names. */
export type Row = Record<string, string | number | null>;

export const rowToSubscription = (r: Row): Subscription => ({
  topic: String(r.topic),
  callback: String(r.callback),
  secret: r.secret === null ? null : String(r.secret),
  leaseSeconds: Number(r.lease_seconds),
  expiresAt: Number(r.expires_at),
  failures: Number(r.failures),
  createdAt: Number(r.created_at),
});

export const rowToDelivery = (r: Row): Delivery => ({
  id: Number(r.id),
  topic: String(r.topic),
  callback: String(r.callback),
  secret: r.secret === null ? null : String(r.secret),
  expiresAt: Number(r.expires_at),
  sha256: r.sha256 === null ? null : String(r.sha256),
  generation: Number(r.generation),
});

export const rowToPending = (r: Row): PendingVerification => ({
  id: Number(r.id),
  generation: Number(r.generation),
  mode: r.mode === "unsubscribe" ? "unsubscribe" : "subscribe",
  topic: String(r.topic),
  callback: String(r.callback),
  secret: r.secret === null ? null : String(r.secret),
  leaseSeconds: Number(r.lease_seconds),
  attempts: Number(r.attempts ?? 0),
});

export const HUB_SQLITE_MIGRATIONS = [
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
  // Pending verifications persisted before the 202; topic versions so that a change is enqueued
  // once; a generation so that a change enqueued while a delivery is in flight is not lost.
  `ALTER TABLE deliveries ADD COLUMN sha256 TEXT;
   ALTER TABLE deliveries ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE topic_state (topic TEXT PRIMARY KEY, sha256 TEXT NOT NULL, updated_at INTEGER NOT NULL);
   CREATE TABLE verifications (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     mode TEXT NOT NULL,
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     callback_host TEXT NOT NULL,
     secret TEXT,
     lease_seconds INTEGER NOT NULL,
     next_at INTEGER NOT NULL,
     generation INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     UNIQUE (topic, callback)
   );
   CREATE INDEX verifications_due ON verifications (next_at);
   CREATE INDEX verifications_host ON verifications (callback_host);`,
  // Verifications that got no answer (a timeout, no connection, a 5xx) are tried again a few times.
  "ALTER TABLE verifications ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;",
];

/** The hub's PostgreSQL tables: subscriptions hold callers' secrets and cannot be recreated, so a loss is refused. */
export const HUB_PG_TABLES = ["hub_subscriptions", "hub_deliveries", "hub_topic_state", "hub_verifications"];

/** The hub's SQLite tables (DATA_DIR/hub.sqlite). */
export const HUB_SQLITE_TABLES = ["subscriptions", "deliveries", "topic_state", "verifications"];

export const HUB_PG_MIGRATIONS = [
  `CREATE TABLE hub_subscriptions (
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     secret TEXT,
     lease_seconds INTEGER NOT NULL,
     expires_at BIGINT NOT NULL,
     failures INTEGER NOT NULL DEFAULT 0,
     created_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL,
     PRIMARY KEY (topic, callback)
   );
   CREATE INDEX hub_subscriptions_expires ON hub_subscriptions (expires_at);
   CREATE TABLE hub_deliveries (
     id BIGSERIAL PRIMARY KEY,
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     next_at BIGINT NOT NULL,
     created_at BIGINT NOT NULL,
     sha256 TEXT,
     generation INTEGER NOT NULL DEFAULT 0,
     UNIQUE (topic, callback),
     FOREIGN KEY (topic, callback) REFERENCES hub_subscriptions (topic, callback) ON DELETE CASCADE
   );
   CREATE INDEX hub_deliveries_due ON hub_deliveries (next_at);
   CREATE TABLE hub_topic_state (topic TEXT PRIMARY KEY, sha256 TEXT NOT NULL, updated_at BIGINT NOT NULL);
   CREATE TABLE hub_verifications (
     id BIGSERIAL PRIMARY KEY,
     mode TEXT NOT NULL,
     topic TEXT NOT NULL,
     callback TEXT NOT NULL,
     callback_host TEXT NOT NULL,
     secret TEXT,
     lease_seconds INTEGER NOT NULL,
     next_at BIGINT NOT NULL,
     generation INTEGER NOT NULL DEFAULT 0,
     created_at BIGINT NOT NULL,
     UNIQUE (topic, callback)
   );
   CREATE INDEX hub_verifications_due ON hub_verifications (next_at);
   CREATE INDEX hub_verifications_host ON hub_verifications (callback_host);`,
  "ALTER TABLE hub_verifications ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;",
];

export const HUB_PG_SCHEMA: PgSchema = {
  component: "hub",
  migrations: HUB_PG_MIGRATIONS,
  tables: HUB_PG_TABLES,
  whenMissing: "refuse",
};
