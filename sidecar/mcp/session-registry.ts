// Legacy (2025) MCP sessions: ids any instance can verify (session-token.ts), ends shared through the
// revocation store, and per-instance bookkeeping that bounds what one client can hold: live sessions per
// client address (at the cap, its least valuable session is ended to admit the new one, so a client that never
// says DELETE is never locked out), a short expiry for sessions that never sent notifications/initialized, an
// idle expiry and a maximum age. A session costs one small entry here: the protocol work is per request.
import type { RevocationStore } from "./revocation-store.ts";
import type { SessionClaims, SessionTokens } from "./session-token.ts";

/** Whatever the activity, a session id is refused this long after it was issued. */
export const MCP_SESSION_MAX_AGE_MS = 24 * 3600_000;

export interface SessionLimits {
  idleMs: number;
  /** Expiry of a session that has not sent notifications/initialized yet. */
  uninitializedMs: number;
  maxSessions: number;
  maxPerClient: number;
}

interface Entry {
  client: string;
  version: string;
  issuedAt: number;
  lastSeen: number;
  initialized: boolean;
}

export type OpenOutcome = { ok: true; id: string } | { ok: false; reason: "too_many"; retryAfterMs: number };
export type ResolveOutcome = { ok: true; claims: SessionClaims } | { ok: false };

export function sessionRegistry(tokens: SessionTokens, revocations: RevocationStore, limits: SessionLimits) {
  const live = new Map<string, Entry>();
  const perClient = new Map<string, Set<string>>();
  const countOf = (client: string) => perClient.get(client)?.size ?? 0;

  const track = (id: string, entry: Entry) => {
    live.set(id, entry);
    let ids = perClient.get(entry.client);
    if (!ids) {
      ids = new Set();
      perClient.set(entry.client, ids);
    }
    ids.add(id);
  };
  const untrack = (id: string) => {
    const entry = live.get(id);
    if (!entry) return;
    live.delete(id);
    const ids = perClient.get(entry.client);
    ids?.delete(id);
    if (ids?.size === 0) perClient.delete(entry.client);
  };
  const end = async (id: string, issuedAt: number) => {
    untrack(id);
    await revocations.revoke(id, issuedAt + MCP_SESSION_MAX_AGE_MS);
  };

  /** When the entry expires if it stays idle. */
  const expiresAt = (e: Entry) =>
    e.lastSeen + (e.initialized ? limits.idleMs : Math.min(limits.idleMs, limits.uninitializedMs));
  const expired = (e: Entry, now: number) => now > expiresAt(e);

  /** The client's session to end for a new one: one never initialized first, then the least recently used. */
  const leastValuable = (client: string): [string, Entry] | undefined => {
    let pick: [string, Entry] | undefined;
    for (const id of perClient.get(client) ?? []) {
      const e = live.get(id) as Entry;
      const better =
        !pick ||
        (pick[1].initialized && !e.initialized) ||
        (pick[1].initialized === e.initialized && e.lastSeen < pick[1].lastSeen);
      if (better) pick = [id, e];
    }
    return pick;
  };

  const sweep = async (now: number): Promise<number> => {
    const ended: [string, Entry][] = [];
    for (const [id, e] of live) if (expired(e, now)) ended.push([id, e]);
    await Promise.all(ended.map(([id, e]) => end(id, e.issuedAt)));
    return ended.length;
  };

  return {
    size: () => live.size,

    /**
     * A new session for `client` (its address). At the client's cap its least valuable session is ended first;
     * at the instance's cap, when no session has expired, the answer says when the first one will.
     */
    async open(client: string, version: string, now = Date.now()): Promise<OpenOutcome> {
      if (countOf(client) >= limits.maxPerClient) {
        const victim = leastValuable(client);
        if (victim) await end(victim[0], victim[1].issuedAt);
      }
      if (live.size >= limits.maxSessions && (await sweep(now)) === 0) {
        let soonest = Number.POSITIVE_INFINITY;
        for (const e of live.values()) soonest = Math.min(soonest, expiresAt(e));
        return { ok: false, reason: "too_many", retryAfterMs: Math.max(1000, soonest - now) };
      }
      const id = tokens.issue(version, now);
      track(id, { client, version, issuedAt: now, lastSeen: now, initialized: false });
      return { ok: true, id };
    },

    /** A session id sent back: genuine, not ended, not too old. A genuine id issued by another instance is adopted. */
    async resolve(id: string, client: string, now = Date.now()): Promise<ResolveOutcome> {
      // A tracked id was verified when it was issued or adopted: no HMAC on the hot path.
      const entry = live.get(id);
      if (entry) {
        // The revocation store answers from memory, so an id ended on another instance is refused here too.
        if (expired(entry, now) || now - entry.issuedAt > MCP_SESSION_MAX_AGE_MS || (await revocations.isRevoked(id))) {
          await end(id, entry.issuedAt);
          return { ok: false };
        }
        entry.lastSeen = now;
        return { ok: true, claims: { version: entry.version, issuedAt: entry.issuedAt } };
      }
      const claims = tokens.verify(id);
      if (!claims || now - claims.issuedAt > MCP_SESSION_MAX_AGE_MS) return { ok: false };
      if (await revocations.isRevoked(id)) return { ok: false };
      // Adopted ids count like our own while there is room; beyond it they are served without bookkeeping.
      if (live.size < limits.maxSessions && countOf(client) < limits.maxPerClient)
        track(id, { client, version: claims.version, issuedAt: claims.issuedAt, lastSeen: now, initialized: true });
      return { ok: true, claims };
    },

    markInitialized(id: string): void {
      const entry = live.get(id);
      if (entry) entry.initialized = true;
    },

    /** DELETE /mcp: ended here and, through the revocation store, everywhere. */
    end: (id: string, claims: SessionClaims) => end(id, claims.issuedAt),

    /** Ends the sessions past their expiry (resolve also checks, so this only bounds memory); returns how many. */
    sweep: (now = Date.now()) => sweep(now),
  };
}

export type SessionRegistry = ReturnType<typeof sessionRegistry>;
