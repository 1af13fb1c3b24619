// Whether the build in DIST_DIR can be served for BASE_URL and holds the content's latest change (npm start,
// npm run serve -- --watch).
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { readManifest } from "../src/deploy/read-manifest.ts";
import { MANIFEST_FILE } from "../src/domain/schemas/manifest.ts";
import { INDEX_FILE, INDEX_VERSION, indexVersionOf } from "../src/domain/search/index-format.ts";

async function newestMtime(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  let newest = (await stat(dir)).mtimeMs;
  for (const e of entries) newest = Math.max(newest, (await stat(join(e.parentPath, e.name))).mtimeMs);
  return newest;
}

type Dirs = { CONTENT_DIR: string; DIST_DIR: string; BASE_URL: string };

/** Why the build in DIST_DIR cannot be served for BASE_URL, or undefined when it can. */
export async function unusableBuild(config: Dirs): Promise<string | undefined> {
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

/** Why DIST_DIR must be built again, or undefined when it is usable and newer than every file under CONTENT_DIR. */
export async function needsBuild(config: Dirs): Promise<string | undefined> {
  const unusable = await unusableBuild(config);
  if (unusable) return unusable;
  const built = await stat(join(config.DIST_DIR, MANIFEST_FILE));
  if ((await newestMtime(config.CONTENT_DIR)) > built.mtimeMs) return "the content changed since the last build";
  return undefined;
}
