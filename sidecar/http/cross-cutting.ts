// Middleware every request passes: limits, CORS, request logs.
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

/** Every endpoint is public: any origin may read, /mcp included (sidecar/mcp/mcp-route.ts says why). */
export const cors: RequestHandler = (req, res, next) => {
  for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
  if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
    for (const [name, value] of Object.entries(PREFLIGHT_HEADERS)) res.setHeader(name, value);
    res.setHeader("Access-Control-Allow-Headers", allowHeadersFor(req.headers["access-control-request-headers"]));
    res.status(204).end();
    return;
  }
  next();
};

/** The one log line per request. */
export function requestLog(logger: Logger): RequestHandler {
  if (!logger.isLevelEnabled("info")) return (_req, _res, next) => next();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () =>
      logger.info({
        event: "http.request",
        method: req.method,
        path: req.path,
        status: res.statusCode,
        client: req.ip,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      }),
    );
    next();
  };
}
