// npm start: builds when DIST_DIR is missing, built for another BASE_URL or index version, or older than
// CONTENT_DIR, then serves and rebuilds on each change under CONTENT_DIR.
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { readManifest } from "../src/deploy/read-manifest.ts";
import { MANIFEST_FILE } from "../src/domain/schemas/manifest.ts";
import { INDEX_FILE, INDEX_VERSION, indexVersionOf } from "../src/domain/search/index-format.ts";
import { watchContent } from "./content-watcher.ts";
import { createLogger } from "./logger.ts";
import { runBuild, stopBuild } from "./run-build.ts";
import { main } from "./server.ts";

async function newestMtime(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  let newest = (await stat(dir)).mtimeMs;
  for (const e of entries) newest = Math.max(newest, (await stat(join(e.parentPath, e.name))).mtimeMs);
  return newest;
}

type Dirs = { CONTENT_DIR: string; DIST_DIR: string; BASE_URL: string };

/** Why the build in DIST_DIR cannot be served for BASE_URL, or undefined when it can. */
async function unusableBuild(config: Dirs): Promise<string | undefined> {
  const manifest = await readManifest(config.DIST_DIR);
  if (!manifest) return "no build yet";
  if (manifest.base_url !== config.BASE_URL) return `the build is for ${manifest.base_url}`;
  // The sidecar refuses an index of another version, so such a build is rebuilt rather than served.
  const head = Buffer.alloc(8);
  await open(join(config.DIST_DIR, INDEX_FILE))
    .then((f) => f.read(head, 0, 8, 0).finally(() => f.close()))
    .catch(() => undefined);
  if (indexVersionOf(head) !== INDEX_VERSION) return "the build's search index is of another version";
  return undefined;
}

export async function needsBuild(config: Dirs): Promise<string | undefined> {
  const unusable = await unusableBuild(config);
  if (unusable) return unusable;
  const built = await stat(join(config.DIST_DIR, MANIFEST_FILE));
  if ((await newestMtime(config.CONTENT_DIR)) > built.mtimeMs) return "the content changed since the last build";
  return undefined;
}

const config = loadConfig();
const reason = await needsBuild(config);
if (reason) {
  console.log(`building (${reason})...`);
  try {
    console.log(await runBuild());
  } catch (e) {
    // A failed rebuild must not take the site down: serve the last good build when there is one for BASE_URL.
    if (await unusableBuild(config)) {
      console.error(`${(e as Error).message}; no usable build in ${config.DIST_DIR} to serve instead.`);
      process.exit(1);
    }
    console.error(`${(e as Error).message}; serving the last good build in ${config.DIST_DIR}.`);
  }
}
await main({ onExit: stopBuild });
watchContent({ contentDir: config.CONTENT_DIR, build: runBuild, logger: createLogger(config) });
