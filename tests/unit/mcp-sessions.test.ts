// Legacy MCP session ids (signed, verifiable by any instance) and the per-instance registry's limits.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { memoryRevocationStore } from "../../sidecar/mcp/revocation-store.ts";
import { MCP_SESSION_MAX_AGE_MS, sessionRegistry } from "../../sidecar/mcp/session-registry.ts";
import { sessionTokens } from "../../sidecar/mcp/session-token.ts";

/** Times are offsets from now: ended ids are remembered against the real clock. */
const T = Date.now();
const LIMITS = { idleMs: 10_000, uninitializedMs: 1_000, maxSessions: 5, maxPerClient: 2 };

test("a token verifies under its key only; any change to it is refused", () => {
  const key = randomBytes(32);
  const tokens = sessionTokens(key);
  const id = tokens.issue("2025-06-18", 1_700_000_000_000);
  assert.deepEqual(tokens.verify(id), { version: "2025-06-18", issuedAt: 1_700_000_000_000 });
  assert.deepEqual(sessionTokens(Buffer.from(key)).verify(id), tokens.verify(id), "another instance, same key");
  assert.equal(sessionTokens(randomBytes(32)).verify(id), undefined, "another key");
  const [v, t, n, mac] = id.split(".");
  for (const forged of [
    `2025-03-26.${t}.${n}.${mac}`,
    `${v}.${(Number.parseInt(t, 36) + 1).toString(36)}.${n}.${mac}`,
    `${v}.${t}.${n}x.${mac}`,
    `${v}.${t}.${n}`,
    "",
    "nope",
    `${id}.x`,
  ])
    assert.equal(tokens.verify(forged), undefined, forged);
  assert.match(id, /^[\x21-\x7e]+$/, "visible ASCII, as Mcp-Session-Id requires");
});

test("at a client's cap its least valuable session ends to admit the new one; the instance's cap says when one expires", async () => {
  const reg = sessionRegistry(sessionTokens(randomBytes(32)), memoryRevocationStore(), LIMITS);
  const a1 = await reg.open("10.0.0.1", "2025-11-25", T + 0);
  const a2 = await reg.open("10.0.0.1", "2025-11-25", T + 5);
  assert.ok(a1.ok && a2.ok);
  reg.markInitialized(a1.id);
  reg.markInitialized(a2.id);
  assert.ok((await reg.resolve(a1.id, "10.0.0.1", T + 10)).ok, "a1 used more recently than a2");
  const a3 = await reg.open("10.0.0.1", "2025-11-25", T + 20);
  assert.ok(a3.ok, "a client at its cap is never refused");
  assert.deepEqual(await reg.resolve(a2.id, "10.0.0.1", T + 30), { ok: false }, "the least recently used ended");
  assert.ok((await reg.resolve(a1.id, "10.0.0.1", T + 30)).ok);
  // A never-initialized session goes before any initialized one, however recent.
  const a4 = await reg.open("10.0.0.1", "2025-11-25", T + 40);
  assert.ok(a4.ok);
  assert.ok((await reg.resolve(a1.id, "10.0.0.1", T + 50)).ok);
  assert.deepEqual(await reg.resolve(a3.id, "10.0.0.1", T + 50), { ok: false });
  for (const c of ["10.0.0.2", "10.0.0.3", "10.0.0.4"]) assert.ok((await reg.open(c, "2025-11-25", T + 60)).ok);
  const full = await reg.open("10.0.0.5", "2025-11-25", T + 100);
  assert.equal(full.ok, false);
  // The first to expire (a4, never initialized, last seen at T + 40) does at T + 1,040: at least a second from now.
  assert.equal(full.ok ? 0 : full.retryAfterMs, 1_000);
  assert.ok((await reg.open("10.0.0.5", "2025-11-25", T + 1_100)).ok, "room once one expired");
  const resolved = await reg.resolve(a1.id, "10.0.0.1", T + 1_200);
  assert.ok(resolved.ok);
  await reg.end(a1.id, resolved.claims);
  assert.deepEqual(await reg.resolve(a1.id, "10.0.0.1", T + 1_300), { ok: false }, "ended ids stay refused");
});

test("a session that never sent notifications/initialized expires early; an initialized one lives to the idle limit", async () => {
  const reg = sessionRegistry(sessionTokens(randomBytes(32)), memoryRevocationStore(), LIMITS);
  const quiet = await reg.open("10.0.0.1", "2025-11-25", T + 0);
  const ready = await reg.open("10.0.0.1", "2025-11-25", T + 0);
  assert.ok(quiet.ok && ready.ok);
  reg.markInitialized(ready.id);
  assert.equal(await reg.sweep(T + 500), 0);
  assert.equal(await reg.sweep(T + 1_500), 1);
  assert.deepEqual(await reg.resolve(quiet.id, "10.0.0.1", T + 1_600), { ok: false });
  assert.ok((await reg.resolve(ready.id, "10.0.0.1", T + 5_000)).ok);
  assert.deepEqual(await reg.resolve(ready.id, "10.0.0.1", T + 16_000), { ok: false }, "idle past idleMs");
  assert.equal(reg.size(), 0);
});

test("a genuine id from another instance is adopted; a revoked one is refused there too; old ids expire", async () => {
  const key = randomBytes(32);
  const shared = memoryRevocationStore();
  const a = sessionRegistry(sessionTokens(key), shared, LIMITS);
  const b = sessionRegistry(sessionTokens(key), shared, LIMITS);
  const now = Date.now();
  const s = await a.open("10.0.0.1", "2025-03-26", now);
  assert.ok(s.ok);
  const onB = await b.resolve(s.id, "10.0.0.1", now + 1);
  assert.ok(onB.ok && onB.claims.version === "2025-03-26");
  assert.equal(b.size(), 1);
  await b.end(s.id, onB.claims);
  assert.deepEqual(await a.resolve(s.id, "10.0.0.1", now + 2), { ok: false }, "a refuses it although it tracked it");
  const c = sessionRegistry(sessionTokens(key), shared, LIMITS);
  assert.deepEqual(await c.resolve(s.id, "10.0.0.1", now + 3), { ok: false }, "a third instance refuses it");
  const old = await a.open("10.0.0.9", "2025-11-25", now - MCP_SESSION_MAX_AGE_MS - 1);
  assert.ok(old.ok);
  assert.deepEqual(await c.resolve(old.id, "10.0.0.9", now), { ok: false });
  await shared.close();
});
