// A body whose Content-Length already exceeds a route's limit is refused from its headers. body-parser would
// read the whole declared body first (and then discard it), so a client that declared more than it sent waited
// for the socket's timeout, and one that asked `Expect: 100-continue` was invited to upload it all. The
// connection is closed after the answer: the body left unread would otherwise have to be read off it.
import type { IncomingMessage, Server } from "node:http";
import type { RequestHandler } from "express";

/** Whether the request's Content-Length is over `limit` bytes. */
export const declaredOver = (req: IncomingMessage, limit: number): boolean =>
  Number(req.headers["content-length"]) > limit;

/** Answers with `refuse` (a 413 in the route's own format) when the declared body is over `limit`. */
export function refuseDeclaredOver(limit: number, refuse: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (!declaredOver(req, limit)) return next();
    res.setHeader("Connection", "close");
    refuse(req, res, next);
  };
}

/**
 * `Expect: 100-continue`: 100 Continue only for a body no route refuses for its size (`largest`: the largest
 * limit of any route); otherwise the request goes on without it, and its route answers 413 from the headers.
 */
export function continueWithin(server: Server, largest: number): void {
  server.on("checkContinue", (req, res) => {
    if (!declaredOver(req, largest)) res.writeContinue();
    else res.setHeader("Connection", "close");
    server.emit("request", req, res);
  });
}
