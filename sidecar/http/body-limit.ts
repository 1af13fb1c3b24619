// A body whose Content-Length already exceeds a route's limit is refused from its headers. body-parser would
// first read the whole declared body, so a client that declared more than it sent waited for the request timeout,
// and one that asked `Expect: 100-continue` was invited to upload it all. The 413 goes out at once; a body the
// client sends anyway is read off and dropped by Node before the connection's next request (closing instead
// would reset the connection under a client still sending, which could then miss the 413).
import type { IncomingMessage, Server } from "node:http";
import type { RequestHandler } from "express";
import { HUB_FORM_MAX_BYTES, MCP_MAX_BODY_BYTES } from "../../src/domain/limits.ts";
import { SERVICE_PATHS } from "../../src/domain/pages/site-paths.ts";

/** The paths that read a body, and their limits (their routes refuse a larger body with refuseDeclaredOver). */
const BODY_LIMITS = new Map<string, number>([
  [SERVICE_PATHS.mcp, MCP_MAX_BODY_BYTES],
  [SERVICE_PATHS.hub, HUB_FORM_MAX_BYTES],
]);
/** For any other path (no route of it reads a body), the largest of them. */
const LARGEST_BODY = Math.max(...BODY_LIMITS.values());

/** Whether the request's Content-Length is over `limit` bytes. */
export const declaredOver = (req: IncomingMessage, limit: number): boolean =>
  Number(req.headers["content-length"]) > limit;

/** Answers with `refuse` (a 413 in the route's own format) when the declared body is over `limit`. */
export function refuseDeclaredOver(limit: number, refuse: RequestHandler): RequestHandler {
  return (req, res, next) => (declaredOver(req, limit) ? refuse(req, res, next) : next());
}

/**
 * `Expect: 100-continue`: 100 Continue only for a body within the limit of the path it is sent to (BODY_LIMITS).
 * Otherwise the request goes on without it, its route answers 413 from the headers, and the connection is closed
 * after the answer: a client that waits for 100 Continue sends no body, so none could be read off.
 */
export function continueWithinLimits(server: Server): void {
  server.on("checkContinue", (req, res) => {
    const url = req.url ?? "";
    const q = url.indexOf("?");
    const limit = BODY_LIMITS.get(q === -1 ? url : url.slice(0, q)) ?? LARGEST_BODY;
    if (!declaredOver(req, limit)) res.writeContinue();
    else res.shouldKeepAlive = false;
    server.emit("request", req, res);
  });
}
