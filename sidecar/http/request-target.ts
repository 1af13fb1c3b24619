// The request line and Host (RFC 9112 sections 3.2 and 3.3), checked once before any route sees the request.
// A server must accept the absolute form of a target (`GET http://host/path`): it is rewritten to its origin
// form, and served only when its authority is this service's (else 421: another origin's content is not ours to
// give). Any other target that is not a path (another scheme, a URL that does not parse) is a bad request; so is
// a request with more than one Host. `OPTIONS *` asks about the server: answered with what it allows. TRACE and
// CONNECT are implemented for no resource: 501.
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import { HttpError } from "./errors.ts";

const BAD_TARGET = new WeakSet<IncomingMessage>();
/** The authority of an absolute-form target. */
const AUTHORITY = new WeakMap<IncomingMessage, string>();

/** The methods some resource of the service answers (`OPTIONS *`). */
export const SERVER_METHODS = "GET, HEAD, POST, DELETE, OPTIONS";
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** Rewrites an absolute http(s) target to its origin form; marks any other target as bad. */
export function toOriginForm(req: IncomingMessage): void {
  const url = req.url;
  if (!url || url.startsWith("/") || url === "*") return;
  if (/^https?:\/\//i.test(url)) {
    try {
      const parsed = new URL(url);
      req.url = `${parsed.pathname}${parsed.search}`;
      AUTHORITY.set(req, parsed.host);
      return;
    } catch {
      // not a URL after all
    }
  }
  BAD_TARGET.add(req);
  req.url = `/${encodeURIComponent(url)}`;
}

/**
 * Whether `authority` (a Host header or a target's host[:port], any case) names this service: BASE_URL's host,
 * or a loopback name with the port the request came in on.
 */
export function isOwnAuthority(baseUrl: string, authority: string, localPort: number | undefined): boolean {
  const host = authority.toLowerCase();
  return host === new URL(baseUrl).host || LOOPBACK_HOSTS.some((h) => host === `${h}:${localPort}`);
}

function hostCount(req: IncomingMessage): number {
  let n = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === "host") n++;
  return n;
}

/** The checks above, answered as the API's errors; `baseUrl` says which authority is ours. */
export function requestTarget(baseUrl: () => string): RequestHandler {
  return (req, res, next) => {
    if (hostCount(req) > 1)
      return next(new HttpError(400, "bad_request", "The request has more than one Host header."));
    if (req.method === "TRACE" || req.method === "CONNECT")
      return next(new HttpError(501, "not_implemented", `${req.method} is not implemented here.`));
    if (BAD_TARGET.has(req))
      return next(
        new HttpError(400, "bad_request", "The request target must be a path (/...) or an absolute http(s) URL."),
      );
    if (req.url === "*") {
      if (req.method !== "OPTIONS") return next(new HttpError(400, "bad_request", "Only OPTIONS may ask for *."));
      res.setHeader("Allow", SERVER_METHODS);
      res.status(204).end();
      return;
    }
    const authority = AUTHORITY.get(req);
    if (authority !== undefined && !isOwnAuthority(baseUrl(), authority, req.socket.localPort))
      return next(new HttpError(421, "misdirected_request", `This server does not serve ${authority}.`));
    next();
  };
}
