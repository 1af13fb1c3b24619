// Starts the real sidecar app in this process on an ephemeral port.

import { join } from "node:path";
import { createLogger } from "../../sidecar/logger.ts";
import { type RunningSidecar, startSidecar } from "../../sidecar/server.ts";
import { loadConfig } from "../../src/config.ts";
import { tempDir } from "./paths.ts";

export async function startTestSidecar(distDir: string, env: Record<string, string> = {}): Promise<RunningSidecar> {
  const dataDir = join(await tempDir("data"), "data");
  const config = loadConfig({
    // This process's own folders (tests/helpers/paths.ts), never the working copy's.
    CONTENT_DIR: process.env.CONTENT_DIR,
    BUILD_CACHE_DIR: process.env.BUILD_CACHE_DIR,
    PORT: "0",
    HOST: "127.0.0.1",
    DIST_DIR: distDir,
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    ...env,
  });
  return startSidecar(config, createLogger(config));
}
