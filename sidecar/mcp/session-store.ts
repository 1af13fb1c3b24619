// Live MCP sessions behind a small interface. The transport of a session lives in this process, so a
// shared store (PostgreSQL) would hold session metadata while the load balancer keeps sessions sticky.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
}

export interface SessionStore {
  get(id: string): Session | undefined;
  set(id: string, session: Session): void;
  delete(id: string): void;
  size(): number;
  /** Removes and returns the sessions idle since before `cutoff` (ms since epoch). */
  takeIdle(cutoff: number): Session[];
  takeAll(): Session[];
}

export function memorySessionStore(): SessionStore {
  const sessions = new Map<string, Session>();
  return {
    get: (id) => sessions.get(id),
    set: (id, s) => void sessions.set(id, s),
    delete: (id) => void sessions.delete(id),
    size: () => sessions.size,
    takeIdle(cutoff) {
      const idle: Session[] = [];
      for (const [id, s] of sessions) {
        if (s.lastSeen < cutoff) {
          sessions.delete(id);
          idle.push(s);
        }
      }
      return idle;
    },
    takeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      return all;
    },
  };
}
