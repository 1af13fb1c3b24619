// Assembles the sidecar: one Express app serving the current build and the dynamic endpoints.
import type { RequestListener } from "node:http";
import express, { type Router } from "express";
import type { BuildStore } from "./build-store/build-store.ts";
import { cors, requestLog, urlLimit } from "./http/cross-cutting.ts";
import { errorHandler, methodNotAllowed, notFound } from "./http/errors.ts";
import type { Logger } from "./logger.ts";
import { reviewsSearch } from "./routes/reviews-search.ts";
import { reviewsSinceRoute } from "./routes/reviews-since.ts";
import { createStaticHandler, staticMethodGuard } from "./routes/static-files.ts";

export interface AppDeps {
  store: BuildStore;
  logger: Logger;
  /** Extra routers mounted before the 404 handler (MCP, WebSub hub). */
  routers?: Router[];
  /** Express's `trust proxy` (TRUST_PROXY): which proxies' X-Forwarded-For to believe. */
  trustProxy?: number | string[];
}

/** The request listener: static files of the current build first, everything else through Express. */
export function createApp({ store, logger, routers = [], trustProxy }: AppDeps): RequestListener {
  const app = express();
  if (trustProxy !== undefined) app.set("trust proxy", trustProxy);
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  app.use(urlLimit, requestLog(logger), cors);
  app.use(staticMethodGuard(store));

  app.get("/api/reviews/search", reviewsSearch(store));
  app.all("/api/reviews/search", methodNotAllowed("GET, HEAD"));
  app.get("/api/reviews/since/:date", reviewsSinceRoute(store));
  app.all("/api/reviews/since/:date", methodNotAllowed("GET, HEAD"));
  for (const router of routers) app.use(router);
  app.use((req, _res, next) => next(notFound(req.path)));
  app.use(errorHandler(logger));
  const serveStatic = createStaticHandler(store, logger);
  return (req, res) => {
    if (!serveStatic(req, res)) app(req, res);
  };
}
