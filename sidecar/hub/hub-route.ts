// POST /api/websub/hub: 202 for well-formed requests, 400 with a plain-text reason, 415, 429.
import express, { type ErrorRequestHandler, type RequestHandler, Router } from "express";
import { rateLimit } from "express-rate-limit";
import type { Hub } from "./hub.ts";

export interface HubRouteLimits {
  perClientPerMinute: number;
  perCallbackHostPerMinute: number;
}

const text =
  (status: number, message: string): RequestHandler =>
  (_req, res) => {
    res.status(status).type("text/plain; charset=utf-8").send(message);
  };

function callbackHost(body: unknown): string | undefined {
  const cb = (body as Record<string, unknown> | undefined)?.["hub.callback"];
  if (typeof cb !== "string") return undefined;
  try {
    return new URL(cb).host.toLowerCase();
  } catch {
    return undefined;
  }
}

export function createHubRouter(hub: Hub, limits: HubRouteLimits): Router {
  const router = Router();
  const tooMany = (what: string) => text(429, `Too many hub requests ${what}; try again in a minute.`);
  const perClient = rateLimit({
    windowMs: 60_000,
    limit: limits.perClientPerMinute,
    standardHeaders: "draft-7",
    legacyHeaders: false,
    handler: tooMany("from your address"),
  });
  const perCallbackHost = rateLimit({
    windowMs: 60_000,
    limit: limits.perCallbackHostPerMinute,
    standardHeaders: "draft-7",
    legacyHeaders: false,
    keyGenerator: (req) => `callback:${callbackHost(req.body)}`,
    skip: (req) => callbackHost(req.body) === undefined,
    handler: tooMany("for this callback host"),
  });
  const formOnly: RequestHandler = (req, res, next) => {
    if (!req.is("application/x-www-form-urlencoded")) {
      text(415, "The body must be application/x-www-form-urlencoded (hub.mode, hub.topic, hub.callback).")(
        req,
        res,
        next,
      );
      return;
    }
    next();
  };
  const accept: RequestHandler = (req, res, next) => {
    const parsed = hub.accept((req.body ?? {}) as Record<string, unknown>);
    if (!parsed.ok) return text(400, parsed.reason)(req, res, next);
    text(202, `Accepted: verification of intent for ${parsed.request.mode} will be sent to the callback.`)(
      req,
      res,
      next,
    );
  };

  // Body parser failures (too large, too many fields, bad encoding) answer in plain text like the rest of the hub.
  const bodyErrors: ErrorRequestHandler = (err, _req, res, _next) => {
    const status = (err as { status?: number }).status ?? 400;
    res
      .status(status >= 400 && status < 500 ? status : 400)
      .type("text/plain; charset=utf-8")
      .send((err as Error).message);
  };
  const form = express.urlencoded({ extended: false, limit: "16kb", parameterLimit: 50 });
  router.post("/api/websub/hub", perClient, formOnly, form, perCallbackHost, accept, bodyErrors);
  router.all("/api/websub/hub", (req, res, next) => {
    res.setHeader("Allow", "POST");
    text(405, "Use POST with a form-encoded body (W3C WebSub).")(req, res, next);
  });
  return router;
}
