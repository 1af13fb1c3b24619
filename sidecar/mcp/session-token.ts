// Legacy (2025) session ids that any instance can verify: the negotiated revision, the issue time and a
// nonce, signed with HMAC-SHA256 under a key the instances share (MCP_SESSION_SECRET).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export interface SessionClaims {
  /** Protocol revision negotiated at initialize (decides, for example, whether batches are allowed). */
  version: string;
  /** Issue time, ms since epoch. */
  issuedAt: number;
}

const VERSION = /^\d{4}-\d{2}-\d{2}$/;

export function sessionTokens(secret: Buffer) {
  const mac = (payload: string) => createHmac("sha256", secret).update(payload).digest("base64url");
  return {
    issue(version: string, now = Date.now()): string {
      const payload = `${version}.${now.toString(36)}.${randomBytes(12).toString("base64url")}`;
      return `${payload}.${mac(payload)}`;
    },
    /** The claims of a genuine id, or undefined for anything else (forged, truncated, another key). */
    verify(id: string): SessionClaims | undefined {
      const parts = id.split(".");
      if (parts.length !== 4 || !VERSION.test(parts[0])) return undefined;
      const expected = Buffer.from(mac(parts.slice(0, 3).join(".")));
      const given = Buffer.from(parts[3]);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const issuedAt = Number.parseInt(parts[1], 36);
      return Number.isSafeInteger(issuedAt) ? { version: parts[0], issuedAt } : undefined;
    },
  };
}

export type SessionTokens = ReturnType<typeof sessionTokens>;
