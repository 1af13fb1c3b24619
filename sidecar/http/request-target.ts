// RFC 9112 §3.2.2: a server must accept the absolute form of a request target (`GET http://host/path`).
// Everything after this point (static files, Express) routes on the origin form, so it is rewritten once here.
// Any other target (another scheme, a URL that does not parse) is a bad request: it is rewritten to a path that
// holds it encoded (Express could not route it at all, and would answer its own HTML 404), and `badTarget`
// answers it 400.
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import { HttpError } from "./errors.ts";

const BAD_TARGET = new WeakSet<IncomingMessage>();

/** Rewrites an absolute http(s) target to its origin form; marks any other target as bad. */
export function toOriginForm(req: IncomingMessage): void {
  const url = req.url;
  if (!url || url.startsWith("/") || url === "*") return;
  if (/^https?:\/\//i.test(url)) {
    try {
      const parsed = new URL(url);
      req.url = `${parsed.pathname}${parsed.search}`;
      return;
    } catch {
      // not a URL after all
    }
  }
  BAD_TARGET.add(req);
  req.url = `/${encodeURIComponent(url)}`;
}

/** 400 for a target toOriginForm could not take (Express's own answer would be its HTML 404 page). */
export const badTarget: RequestHandler = (req, _res, next) =>
  next(
    BAD_TARGET.has(req)
      ? new HttpError(400, "bad_request", "The request target must be a path (/...) or an absolute http(s) URL.")
      : undefined,
  );
