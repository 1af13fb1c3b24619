// The operations settings of src/config.ts: DATABASE_URL, TRUST_PROXY and the verification queue bounds.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "../../src/config.ts";

test("TRUST_PROXY: off by default, a hop count, or names and CIDRs", () => {
  assert.equal(loadConfig({}).TRUST_PROXY, undefined);
  assert.equal(loadConfig({ TRUST_PROXY: "2" }).TRUST_PROXY, 2);
  assert.deepEqual(loadConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8,::1" }).TRUST_PROXY, [
    "loopback",
    "10.0.0.0/8",
    "::1",
  ]);
  assert.throws(() => loadConfig({ TRUST_PROXY: "everyone" }), /TRUST_PROXY: must be a hop count.*everyone/s);
  assert.throws(() => loadConfig({ TRUST_PROXY: "true" }), /TRUST_PROXY/);
});

test("DATABASE_URL must be a postgres URL; empty means the embedded store", () => {
  assert.equal(loadConfig({ DATABASE_URL: "" }).DATABASE_URL, undefined);
  assert.equal(loadConfig({ DATABASE_URL: "postgres://u@h/db" }).DATABASE_URL, "postgres://u@h/db");
  assert.throws(() => loadConfig({ DATABASE_URL: "mysql://u@h/db" }), /DATABASE_URL: must be a postgres/);
});

test("the verification queue bounds are positive integers", () => {
  const c = loadConfig({});
  assert.equal(c.HUB_VERIFY_QUEUE_MAX, 1000);
  assert.equal(c.HUB_VERIFY_QUEUE_MAX_PER_HOST, 50);
  assert.throws(() => loadConfig({ HUB_VERIFY_QUEUE_MAX: "0" }), /HUB_VERIFY_QUEUE_MAX/);
});

test("verification retry delays: three by default, a list of milliseconds, none for none", () => {
  assert.deepEqual(loadConfig({}).HUB_VERIFY_RETRY_DELAYS_MS, [5000, 30000, 120000]);
  assert.deepEqual(loadConfig({ HUB_VERIFY_RETRY_DELAYS_MS: "100, 200" }).HUB_VERIFY_RETRY_DELAYS_MS, [100, 200]);
  assert.deepEqual(loadConfig({ HUB_VERIFY_RETRY_DELAYS_MS: "none" }).HUB_VERIFY_RETRY_DELAYS_MS, []);
  assert.throws(() => loadConfig({ HUB_VERIFY_RETRY_DELAYS_MS: "5s" }), /HUB_VERIFY_RETRY_DELAYS_MS/);
});
