import type { IncomingMessage, ServerResponse } from "node:http";

export { CACHE_API, CACHE_DATA, CACHE_IMMUTABLE } from "../../src/domain/static-headers.ts";

/**
 * A body at least this long ends its connection (Connection: close). The kernel's socket buffers take several MB
 * at once, so the sidecar hands a body's last byte over long before a slow reader has read it, and the keep-alive
 * timeout would then close the connection as idle under the reader: undici (Node's fetch) reports that as "other
 * side closed" and drops the body's end, and a client that reuses the connection afterwards finds it gone. Closed
 * with the body instead, the close comes after every byte and the client expects it. A reader at 64 KiB/s (a phone
 * on a poor network) reads this much well within the keep-alive timeout; reconnecting costs little beside it.
 */
export const CLOSE_AFTER_BODY_BYTES = 256 * 1024;

/** Content-Length, and Connection: close for a long body (CLOSE_AFTER_BODY_BYTES); every body's length is set here. */
export function setBodyLength(req: IncomingMessage, res: ServerResponse, length: number): void {
  res.setHeader("Content-Length", length);
  if (length >= CLOSE_AFTER_BODY_BYTES && req.method !== "HEAD") res.shouldKeepAlive = false;
}

/** 200 with a complete body (none for HEAD); every byte-serving route ends here. */
export function sendBytes(req: IncomingMessage, res: ServerResponse, type: string, body: Buffer): void {
  res.setHeader("Content-Type", type);
  setBodyLength(req, res, body.length);
  res.statusCode = 200;
  res.end(req.method === "HEAD" ? undefined : body);
}
