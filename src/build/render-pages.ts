// The pages that are files of every build (home, 404), rendered through the server bundle's own handler, the one
// the sidecar uses for the pages it renders on demand (sidecar/routes/pages.ts), with the build's page data as
// locals: from the bundle Astro just made (a full build) or from the one a data-only build reuses
// (src/build/astro-bundle.ts). Requests go over loopback, exactly as the sidecar's Express hands them over.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { PageData } from "../domain/pages/page-data.ts";
import { PAGE_PATHS } from "../domain/pages/site-paths.ts";
import { SERVER_BUNDLE_DIR } from "./write-manifest.ts";

type AstroHandler = (req: unknown, res: unknown, next: (err?: unknown) => void, locals: App.Locals) => Promise<void>;

/** Route asked for -> file written. src/pages/404.astro's route is /404; its file is the one hosts serve. */
const PAGE_FILES: ReadonlyArray<{ route: string; file: string }> = [
  { route: PAGE_PATHS.home, file: "index.html" },
  { route: "/404", file: PAGE_PATHS.notFound.slice(1) },
];

const loading = new Map<string, Promise<AstroHandler>>();

/**
 * The bundle's handler, its modules loaded once per folder. The build starts this for a kept bundle before it
 * reads the content, so that loading the bundle (the analysis engine included) fills the main thread's waits for
 * the stat worker and the disk instead of following the data files.
 */
export function loadBundle(bundleDir: string): Promise<AstroHandler> {
  let pending = loading.get(bundleDir);
  if (!pending) {
    const entry = pathToFileURL(join(bundleDir, SERVER_BUNDLE_DIR, "entry.mjs"));
    const before = new Set(process.listeners("unhandledRejection"));
    pending = import(entry.href).then(({ handler }: { handler: AstroHandler }) => {
      for (const l of process.listeners("unhandledRejection")) if (!before.has(l)) process.off("unhandledRejection", l);
      return handler;
    });
    loading.set(bundleDir, pending);
  }
  return pending;
}

export async function renderPages(bundleDir: string, data: PageData): Promise<Map<string, Buffer>> {
  const handler = await loadBundle(bundleDir);
  let failure: unknown;
  const server = createServer((req, res) => {
    handler(req, res, () => res.writeHead(404).end(), { site: data }).catch((e: unknown) => {
      failure = e;
      res.writeHead(500).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    const { port } = server.address() as AddressInfo;
    const pages = new Map<string, Buffer>();
    for (const { route, file } of PAGE_FILES) {
      const response = await fetch(`http://127.0.0.1:${port}${route}`, {
        headers: { accept: "text/html", "accept-encoding": "identity" },
      });
      const body = Buffer.from(await response.arrayBuffer());
      const expected = route === "/404" ? 404 : 200;
      if (response.status !== expected || response.headers.has("content-encoding")) {
        throw new Error(`The server bundle answered ${route} with ${response.status}: ${failure ?? body.toString()}`);
      }
      pages.set(file, body);
    }
    return pages;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
