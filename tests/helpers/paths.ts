import { mkdtempSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SAMPLE_CONTENT = join(ROOT, "content");

/** Every folder tempDir made in this test process: removed when the process exits, unless KEEP_TEST_DIRS is set. */
const made = new Set<string>();
process.once("exit", () => {
  if (process.env.KEEP_TEST_DIRS) return;
  for (const dir of made) rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
});

export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `rps-${prefix}-`));
  made.add(dir);
  return dir;
}

let buildCache: string | undefined;

/**
 * The BUILD_CACHE_DIR of the builds and servers this test process starts: never the working copy's .build-cache,
 * which a server running from the working copy uses. A whole run may share one by setting BUILD_CACHE_DIR (kept
 * bundles are keyed by code and BASE_URL, so builds of different tests do not evict each other's).
 */
export function testBuildCache(): string {
  if (process.env.BUILD_CACHE_DIR) return process.env.BUILD_CACHE_DIR;
  if (buildCache === undefined) {
    buildCache = mkdtempSync(join(tmpdir(), "rps-build-cache-"));
    made.add(buildCache);
  }
  return buildCache;
}
