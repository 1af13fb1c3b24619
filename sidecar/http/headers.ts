import type { IncomingMessage, ServerResponse } from "node:http";

export { CACHE_API, CACHE_DATA, CACHE_IMMUTABLE } from "../../src/domain/static-headers.ts";

/** 200 with a complete body (none for HEAD); every byte-serving route ends here. */
export function sendBytes(req: IncomingMessage, res: ServerResponse, type: string, body: Buffer): void {
  res.setHeader("Content-Type", type);
  res.setHeader("Content-Length", body.length);
  res.statusCode = 200;
  res.end(req.method === "HEAD" ? undefined : body);
}
