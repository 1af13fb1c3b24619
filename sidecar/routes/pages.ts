// Pages rendered on demand (README "Pages"): Astro's server bundle from DIST_DIR/_server (@astrojs/node in
// middleware mode), given the current build's data as locals; and the HTML 404 for browsers.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type RequestHandler, Router } from "express";
import { SERVER_BUNDLE_DIR } from "../../src/build/write-manifest.ts";
import { type PageData, pageDataFromIndex } from "../../src/domain/pages/page-data.ts";
import { PAGE_PATHS } from "../../src/domain/pages/site-paths.ts";
import type { Insights } from "../../src/domain/schemas/insights.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { Snapshot } from "../build-store/snapshot.ts";
import type { Logger } from "../logger.ts";

type AstroHandler = (req: unknown, res: unknown, next: (err?: unknown) => void, locals: App.Locals) => Promise<void>;

const pageData = new WeakMap<Snapshot, PageData>();

function pageDataOf(snapshot: Snapshot): PageData {
  let data = pageData.get(snapshot);
  if (!data) {
    data = pageDataFromIndex(snapshot.manifest.base_url, snapshot.index, snapshot.json("/insights.json") as Insights);
    pageData.set(snapshot, data);
  }
  return data;
}

/**
 * Imports a build's server bundle: the entry, then every module beside it, so that the pages' lazily imported
 * chunks are in memory before a later build replaces the folder (chunk names carry a content hash, so each build's
 * code stays its own; a module that cannot load here, such as the unused sharp image service, is skipped and never
 * needed). A replaced bundle's process-wide listener (the adapter's unhandledRejection logger) is removed.
 */
function bundleLoader(distDir: string) {
  const dir = join(distDir, SERVER_BUNDLE_DIR);
  let loaded: { buildId: string; handler: Promise<AstroHandler>; listeners: NodeJS.UnhandledRejectionListener[] };
  const importBundle = async (current: typeof loaded): Promise<AstroHandler> => {
    const before = new Set(process.listeners("unhandledRejection"));
    const { handler } = (await import(`${pathToFileURL(join(dir, "entry.mjs")).href}?build=${current.buildId}`)) as {
      handler: AstroHandler;
    };
    current.listeners = process.listeners("unhandledRejection").filter((l) => !before.has(l));
    const modules = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith(".mjs") && f !== "entry.mjs");
    await Promise.allSettled(modules.map((f) => import(pathToFileURL(join(dir, f)).href)));
    return handler;
  };
  return (buildId: string): Promise<AstroHandler> => {
    if (loaded?.buildId === buildId) return loaded.handler;
    for (const l of loaded?.listeners ?? []) process.off("unhandledRejection", l);
    const current: typeof loaded = { buildId, listeners: [], handler: Promise.resolve() as never };
    current.handler = importBundle(current);
    loaded = current;
    return current.handler;
  };
}

export function createPagesRouter(store: BuildStore, distDir: string, logger: Logger): Router {
  const load = bundleLoader(distDir);
  const failed = new Set<string>();
  // Loaded at the first page request (a sidecar serving only the API and files never holds Astro's runtime, about
  // 35 MB), and from then on again right after each build switch (while its folder is the one on disk).
  let used = false;
  store.onSwitch(({ next }) => {
    if (used) void load(next.manifest.build_id).catch(() => undefined);
  });
  const router = Router();
  router.use(async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    used = true;
    const snapshot = store.current();
    const buildId = snapshot.manifest.build_id;
    const handler = await load(buildId).catch((e: Error) => {
      // A build without the bundle (or a broken one) still serves its files and the API; pages answer 404.
      if (!failed.has(buildId)) logger.error({ event: "pages.load_failed", build: buildId, err: e.message }, e.message);
      failed.add(buildId);
    });
    if (!handler) return next();
    await handler(req, res, next, { site: pageDataOf(snapshot) });
  });
  return router;
}

/** Browsers get the built 404 page for an unknown path; every other client the JSON 404 after it. */
export function htmlNotFound(store: BuildStore): RequestHandler {
  return (req, res, next) => {
    const page = store.current().files.get(PAGE_PATHS.notFound);
    if (!page || !(req.headers.accept ?? "").includes("text/html") || req.path.startsWith("/api/")) return next();
    res.status(404).type(page.type).setHeader("Cache-Control", "no-store");
    res.end(req.method === "HEAD" ? undefined : page.identity.read());
  };
}
