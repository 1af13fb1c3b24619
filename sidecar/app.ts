// Assembles the sidecar: one Express app serving the current build and the dynamic endpoints.
import type { RequestListener } from "node:http";
import express, { type RequestHandler, type Router } from "express";
import { ENTITY_KINDS, PAGE_PATHS } from "../src/domain/pages/site-paths.ts";
import { WIDGET_DATA_DIR } from "../src/domain/widget/widget-paths.ts";
import type { BuildStore } from "./build-store/build-store.ts";
import { cors, requestLog, urlLimit } from "./http/cross-cutting.ts";
import { errorHandler, methodNotAllowed, notFound } from "./http/errors.ts";
import { requestTarget, toOriginForm } from "./http/request-target.ts";
import type { Logger } from "./logger.ts";
import { createPagesRouter, htmlNotFound } from "./routes/pages.ts";
import { reviewsSearch, SEARCH_ROUTE } from "./routes/reviews-search.ts";
import { reviewsSinceRoute, SINCE_ROUTE } from "./routes/reviews-since.ts";
import { staticFiles, staticMethodGuard } from "./routes/static-files.ts";

export interface AppDeps {
  store: BuildStore;
  logger: Logger;
  /** Extra routers mounted before the 404 handler (MCP, WebSub hub). */
  routers?: Router[];
  /** Where the build's server bundle is: pages rendered on demand (routes/pages.ts). */
  distDir?: string;
  /** Express's `trust proxy` (TRUST_PROXY): which proxies' X-Forwarded-For to believe. */
  trustProxy?: number | string[];
}

/**
 * The pages rendered on demand, and the widget's files (one may be asked for with an unknown id), as Express paths:
 * other methods than GET and HEAD get 405 there.
 */
const PAGE_ROUTES = [
  PAGE_PATHS.search,
  PAGE_PATHS.widget,
  PAGE_PATHS.apiReference,
  `${WIDGET_DATA_DIR}:kind/:file`,
  PAGE_PATHS.reviews,
  `${PAGE_PATHS.reviews}:id`,
  `${PAGE_PATHS.reviews}page/:n`,
  ...Object.values(ENTITY_KINDS).flatMap(({ path }) => [path, `${path}:id`]),
];
const readOnly = methodNotAllowed("GET, HEAD");
const onlyReads: RequestHandler = (req, res, next) =>
  req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS" ? next() : readOnly(req, res, next);

/** The request listener: every request goes through one Express app. */
export function createApp({ store, logger, routers = [], distDir, trustProxy }: AppDeps): RequestListener {
  const app = express();
  if (trustProxy !== undefined) app.set("trust proxy", trustProxy);
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  app.use(
    urlLimit,
    requestLog(logger),
    requestTarget(() => store.current().manifest.base_url),
    cors,
  );
  app.use(staticFiles(store), staticMethodGuard(store));

  app.get(SEARCH_ROUTE, reviewsSearch(store));
  app.all(SEARCH_ROUTE, methodNotAllowed("GET, HEAD"));
  app.get(SINCE_ROUTE, reviewsSinceRoute(store));
  app.all(SINCE_ROUTE, methodNotAllowed("GET, HEAD"));
  for (const router of routers) app.use(router);
  if (distDir) {
    for (const path of PAGE_ROUTES) app.all(path, onlyReads);
    app.use(createPagesRouter(store, distDir, logger), htmlNotFound(store));
  }
  app.use((req, _res, next) => next(notFound(req.path)));
  app.use(errorHandler(logger));
  return (req, res) => {
    toOriginForm(req);
    app(req, res);
  };
}
