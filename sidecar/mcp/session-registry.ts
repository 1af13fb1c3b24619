// Legacy (2025) MCP sessions: ids any instance can verify (session-token.ts), ends shared through the
// revocation store, and per-instance bookkeeping that bounds what one client can hold: live sessions per
// client address, a short expiry for sessions that never sent notifications/initialized, an idle expiry
// and a maximum age. A session costs one small entry here: the protocol work is per request.
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

export type OpenOutcome = { ok: true; id: string } | { ok: false; reason: "too_many" | "too_many_for_client" };
export type ResolveOutcome = { ok: true; claims: SessionClaims } | { ok: false };

export function sessionRegistry(tokens: SessionTokens, revocations: RevocationStore, limits: SessionLimits) {
  const live = new Map<string, Entry>();
  const perClient = new Map<string, number>();

  const track = (id: string, entry: Entry) => {
    live.set(id, entry);
    perClient.set(entry.client, (perClient.get(entry.client) ?? 0) + 1);
  };
  const untrack = (id: string) => {
    const entry = live.get(id);
    if (!entry) return;
    live.delete(id);
    const n = (perClient.get(entry.client) ?? 1) - 1;
    if (n > 0) perClient.set(entry.client, n);
    else perClient.delete(entry.client);
  };
  const end = async (id: string, issuedAt: number) => {
    untrack(id);
    await revocations.revoke(id, issuedAt + MCP_SESSION_MAX_AGE_MS);
  };

  const expired = (e: Entry, now: number) => {
    const idle = now - e.lastSeen;
    return idle > limits.idleMs || (!e.initialized && idle > limits.uninitializedMs);
  };

  return {
    size: () => live.size,

    /** A new session for `client` (its address), if the limits leave room. */
    open(client: string, version: string, now = Date.now()): OpenOutcome {
      if (live.size >= limits.maxSessions) return { ok: false, reason: "too_many" };
      if ((perClient.get(client) ?? 0) >= limits.maxPerClient) return { ok: false, reason: "too_many_for_client" };
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
      if (live.size < limits.maxSessions && (perClient.get(client) ?? 0) < limits.maxPerClient)
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
    async sweep(now = Date.now()): Promise<number> {
      const ended: [string, Entry][] = [];
      for (const [id, e] of live) if (expired(e, now)) ended.push([id, e]);
      await Promise.all(ended.map(([id, e]) => end(id, e.issuedAt)));
      return ended.length;
    },
  };
}

export type SessionRegistry = ReturnType<typeof sessionRegistry>;
