// Middleware every request passes: limits, CORS, request logs.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { MAX_URL_BYTES } from "../../src/domain/limits.ts";
import { allowHeadersFor, CORS_HEADERS, PREFLIGHT_HEADERS } from "../../src/domain/static-headers.ts";
import type { Logger } from "../logger.ts";
import { HttpError } from "./errors.ts";

export const urlLimit: RequestHandler = (req, _res, next) => {
  if (Buffer.byteLength(req.originalUrl) > MAX_URL_BYTES) {
    next(new HttpError(414, "uri_too_long", `The URL is longer than ${MAX_URL_BYTES} bytes.`));
    return;
  }
  next();
};

/**
 * The CORS headers, in the order the cors middleware sets them first on every answer (the fast path's prepared
 * answers carry them in the same order).
 */
export const CORS_FIELDS: [string, string][] = Object.entries(CORS_HEADERS);

/** Every endpoint is public: any origin may read, /mcp included (sidecar/mcp/mcp-route.ts says why). */
export function setCorsHeaders(res: ServerResponse): void {
  for (const [name, value] of CORS_FIELDS) res.setHeader(name, value);
}

export const cors: RequestHandler = (req, res, next) => {
  setCorsHeaders(res);
  if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
    for (const [name, value] of Object.entries(PREFLIGHT_HEADERS)) res.setHeader(name, value);
    res.setHeader("Access-Control-Allow-Headers", allowHeadersFor(req.headers["access-control-request-headers"]));
    res.status(204).end();
    return;
  }
  next();
};

/** The client's address as Express's `req.ip` gives it: behind a proxy, what TRUST_PROXY lets it read from X-Forwarded-For. */
export type ClientAddress = (req: IncomingMessage) => string | undefined;

/** The one log line per request. `started` is process.hrtime.bigint() at arrival. */
export function logRequest(
  logger: Logger,
  req: IncomingMessage,
  path: string,
  status: number,
  started: bigint,
  client: string | undefined,
): void {
  logger.info({
    event: "http.request",
    method: req.method,
    path,
    status,
    client,
    ms: Number(process.hrtime.bigint() - started) / 1e6,
  });
}

export function requestLog(logger: Logger): RequestHandler {
  if (!logger.isLevelEnabled("info")) return (_req, _res, next) => next();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => logRequest(logger, req, req.path, res.statusCode, started, req.ip));
    next();
  };
}
