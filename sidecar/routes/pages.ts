// Pages rendered on demand (README "Pages"): Astro's server bundle from DIST_DIR/_server (@astrojs/node in
// middleware mode), given the current build's data as locals; and the HTML 404 for browsers.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type RequestHandler, Router } from "express";
import { SERVER_BUNDLE_DIR } from "../../src/build/write-manifest.ts";
import { sha256Hex } from "../../src/domain/hash.ts";
import type { PageData } from "../../src/domain/pages/page-data.ts";
import { PAGE_PATHS } from "../../src/domain/pages/site-paths.ts";
import type { Insights } from "../../src/domain/schemas/insights.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { Snapshot } from "../build-store/snapshot.ts";

type AstroHandler = (req: unknown, res: unknown, next: (err?: unknown) => void, locals: App.Locals) => Promise<void>;

const pageData = new WeakMap<Snapshot, PageData>();

function pageDataOf(snapshot: Snapshot): PageData {
  let data = pageData.get(snapshot);
  if (!data) {
    data = {
      baseUrl: snapshot.manifest.base_url,
      dataset: snapshot.dataset,
      insights: snapshot.json("/insights.json") as Insights,
      index: snapshot.index,
    };
    pageData.set(snapshot, data);
  }
  return data;
}

/**
 * The server bundle is code, not data (the data comes from the snapshot), so it is imported again only when its
 * entry changed: a content-only rebuild keeps the loaded one.
 */
function bundleLoader(distDir: string) {
  const entry = join(distDir, SERVER_BUNDLE_DIR, "entry.mjs");
  let loaded: { buildId: string; hash: string; handler: Promise<AstroHandler> } | undefined;
  return async (buildId: string): Promise<AstroHandler> => {
    if (loaded?.buildId === buildId) return loaded.handler;
    const hash = sha256Hex(await readFile(entry));
    if (loaded?.hash !== hash) {
      const url = `${pathToFileURL(entry).href}?v=${hash.slice(0, 16)}`;
      loaded = { buildId, hash, handler: import(url).then((m: { handler: AstroHandler }) => m.handler) };
    } else loaded = { ...loaded, buildId };
    return loaded.handler;
  };
}

export function createPagesRouter(store: BuildStore, distDir: string): Router {
  const load = bundleLoader(distDir);
  const router = Router();
  router.use(async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const snapshot = store.current();
    const handler = await load(snapshot.manifest.build_id);
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
    res.end(req.method === "HEAD" ? undefined : page.identity.bytes);
  };
}
