// POST /api/websub/hub: 202 (no body) once a well-formed request is stored, 400 with a plain-text reason, 415, 429,
// 503. GET and HEAD: a short page on the hub, its topics and how to subscribe.
import express, { type ErrorRequestHandler, type RequestHandler, type Response, Router } from "express";
import { rateLimit, type Store } from "express-rate-limit";
import { HUB_FORM_MAX_BYTES, HUB_FORM_MAX_FIELDS } from "../../src/domain/limits.ts";
import { SERVICE_PATHS } from "../../src/domain/pages/site-paths.ts";
import { CACHE_API } from "../../src/domain/static-headers.ts";
import { RateLimitUnavailable } from "../db/pg-rate-limit-store.ts";
import { refuseDeclaredOver } from "../http/body-limit.ts";
import type { Hub } from "./hub.ts";
import { renderHubPage } from "./hub-page.ts";
import { callbackHostKey } from "./hub-request.ts";

export interface HubRouteLimits {
  perClientPerMinute: number;
  perCallbackHostPerMinute: number;
  /** Shared counters (PostgreSQL with several instances); default: this process's memory. */
  store?: (name: "client" | "callback") => Store;
}

/** What a 503 of the hub asks a client to wait: the database or the queue is expected back within that. */
const RETRY_AFTER_SECONDS = 30;

const text =
  (status: number, message: string): RequestHandler =>
  (_req, res) => {
    res.status(status).type("text/plain; charset=utf-8").send(message);
  };

/** The callback's host key, read once per request (by `noteCallbackHost`) for the per-host limit. */
const callbackHostOf = (res: Response) => res.locals.callbackHost as string | undefined;
const noteCallbackHost: RequestHandler = (req, res, next) => {
  const body = req.body as Record<string, unknown> | undefined;
  const cb = body && Object.hasOwn(body, "hub.callback") ? body["hub.callback"] : undefined;
  res.locals.callbackHost = typeof cb === "string" ? callbackHostKey(cb) : undefined;
  next();
};

export function createHubRouter(hub: Hub, limits: HubRouteLimits): Router {
  const router = Router();
  const tooMany = (what: string) => text(429, `Too many hub requests ${what}; try again in a minute.`);
  const perClient = rateLimit({
    windowMs: 60_000,
    limit: limits.perClientPerMinute,
    standardHeaders: "draft-7",
    legacyHeaders: false,
    handler: tooMany("from your address"),
    // A shared store that fails (database down) throws RateLimitUnavailable: a 503 with Retry-After (bodyErrors).
    ...(limits.store ? { store: limits.store("client") } : {}),
  });
  const perCallbackHost = rateLimit({
    windowMs: 60_000,
    limit: limits.perCallbackHostPerMinute,
    standardHeaders: "draft-7",
    legacyHeaders: false,
    keyGenerator: (_req, res) => `callback:${callbackHostOf(res)}`,
    skip: (_req, res) => callbackHostOf(res) === undefined,
    handler: tooMany("for this callback host"),
    ...(limits.store ? { store: limits.store("callback") } : {}),
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
  const accept: RequestHandler = async (req, res, next) => {
    const answer = await hub.accept((req.body ?? {}) as Record<string, unknown>);
    if (answer.status === 503) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    // The 202 carries no body: generated clients parse a success body as JSON by default, and there is nothing to
    // read before the verification request reaches the callback.
    if (answer.status === 202) res.status(202).end();
    else text(answer.status, answer.message)(req, res, next);
  };

  // Body parser failures (too large, too many fields, bad encoding) answer in plain text like the rest of the hub.
  const bodyErrors: ErrorRequestHandler = (err, _req, res, _next) => {
    if (err instanceof RateLimitUnavailable) {
      res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
      res
        .status(503)
        .type("text/plain; charset=utf-8")
        .send("The hub cannot check its rate limits right now; try again later.");
      return;
    }
    const status = (err as { status?: number }).status ?? 400;
    res
      .status(status >= 400 && status < 500 ? status : 400)
      .type("text/plain; charset=utf-8")
      .send((err as Error).message);
  };
  const form = express.urlencoded({ extended: false, limit: HUB_FORM_MAX_BYTES, parameterLimit: HUB_FORM_MAX_FIELDS });
  const declaredTooLarge = refuseDeclaredOver(
    HUB_FORM_MAX_BYTES,
    text(413, `The form exceeds ${HUB_FORM_MAX_BYTES} bytes (W3C WebSub; this hub's limit).`),
  );
  router.post(
    SERVICE_PATHS.hub,
    perClient,
    formOnly,
    declaredTooLarge,
    form,
    noteCallbackHost,
    perCallbackHost,
    accept,
    bodyErrors,
  );
  const page = renderHubPage(hub.topics);
  // Express answers HEAD with this route too, without the body.
  router.get(SERVICE_PATHS.hub, (_req, res) => {
    res.status(200).type("text/html; charset=utf-8").setHeader("Cache-Control", CACHE_API);
    res.send(page);
  });
  router.all(SERVICE_PATHS.hub, (req, res, next) => {
    res.setHeader("Allow", "GET, HEAD, POST");
    text(405, "Use POST with a form-encoded body (W3C WebSub).")(req, res, next);
  });
  return router;
}
