import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread } from "node:worker_threads";
import { LINE_FILES } from "../../src/build/line-file.ts";
import { onExit } from "./cleanup.ts";
import "./report-pipe.ts";
import "./cpu-ledger.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Every folder tempDir made in this test process: removed when the process exits, unless KEEP_TEST_DIRS is set. */
const made = new Set<string>();
onExit(() => {
  if (process.env.KEEP_TEST_DIRS) return;
  for (const dir of made) rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
});

export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `rps-${prefix}-`));
  made.add(dir);
  return dir;
}

// Nothing a test runs may read or write the working copy's content/, dist/, .build-cache or .data: the folders
// the configuration defaults to are this process's own, and every child process and in-process loadConfig()
// inherits them. CONTENT_DIR names a folder that does not exist, so a test that forgets to give its own content
// fails instead of reading yours; the sample content is tests/helpers/sample-content.ts.
// A worker thread a test starts (the build's analysis workers) runs this file too (it inherits --import) and
// keeps its process's folders: it has no exit of its own to remove folders of its own by.
if (isMainThread) {
  const own = mkdtempSync(join(tmpdir(), "rps-env-"));
  made.add(own);
  process.env.CONTENT_DIR = join(own, "no-content-given");
  process.env.DIST_DIR = join(own, "dist");
  process.env.BUILD_CACHE_DIR = join(own, "build-cache");
  process.env.DATA_DIR = join(own, "data");
  // The build cache of the sample scripts/test.ts built once for the code under test: a copy in this process's own,
  // so its builds need not run Astro for that code (whatever their BASE_URL), nor analyse or compress again what the sample has.
  // Not the content snapshot: it describes the runner's content folder, not any this process builds.
  if (process.env.RPS_TEST_BUILD_CACHE)
    for (const part of ["astro-bundle", LINE_FILES.analysis, "compressed"])
      cpSync(join(process.env.RPS_TEST_BUILD_CACHE, part), join(process.env.BUILD_CACHE_DIR, part), {
        recursive: true,
      });
}

let buildCache: string | undefined;

/**
 * The BUILD_CACHE_DIR of the builds and servers this test process starts: never the working copy's .build-cache,
 * which a server running from the working copy uses. A whole run may share one by setting BUILD_CACHE_DIR (kept
 * bundles are keyed by the code, so builds of different tests share one and do not evict each other's).
 */
export function testBuildCache(): string {
  if (process.env.BUILD_CACHE_DIR) return process.env.BUILD_CACHE_DIR;
  if (buildCache === undefined) {
    buildCache = mkdtempSync(join(tmpdir(), "rps-build-cache-"));
    made.add(buildCache);
  }
  return buildCache;
}
