// Holds the current build and switches to a new one, atomically, when a build lands in DIST_DIR.
import { type StatWatcher, unwatchFile, watchFile } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { MANIFEST_FILE } from "../../src/domain/schemas/manifest.ts";
import { IndexFormatError } from "../../src/domain/search/index-format.ts";
import type { Logger } from "../logger.ts";
import { BuildMismatchError, IncompleteBuildError, loadSnapshot, type Snapshot } from "./snapshot.ts";

export interface BuildSwitch {
  previous: Snapshot;
  next: Snapshot;
}

export type SwitchListener = (change: BuildSwitch) => void | Promise<void>;

export interface BuildStore {
  current(): Snapshot;
  /** Loads DIST_DIR again now; resolves true when a different build was switched in. */
  reload(): Promise<boolean>;
  onSwitch(listener: SwitchListener): void;
  close(): void;
}

const POLL_MS = 250;

async function loadWithRetry(distDir: string, baseUrl: string): Promise<Snapshot> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await loadSnapshot(distDir, baseUrl);
    } catch (e) {
      const transient = e instanceof IncompleteBuildError || (e as NodeJS.ErrnoException).code === "ENOENT";
      if (!transient || attempt >= 20) throw e;
      await sleep(100);
    }
  }
}

export async function createBuildStore(opts: {
  distDir: string;
  baseUrl: string;
  logger: Logger;
  watch?: boolean;
  /** Runs after a new build loaded and before it is switched in (e.g. to fill its caches); errors are logged. */
  prepare?: (previous: Snapshot, next: Snapshot) => Promise<void>;
}): Promise<BuildStore> {
  let current = await loadWithRetry(opts.distDir, opts.baseUrl);
  const listeners: SwitchListener[] = [];
  let chain: Promise<boolean> = Promise.resolve(false);

  const reloadOnce = async (): Promise<boolean> => {
    let next: Snapshot;
    try {
      next = await loadWithRetry(opts.distDir, opts.baseUrl);
    } catch (e) {
      const level = e instanceof BuildMismatchError || e instanceof IndexFormatError ? "error" : "warn";
      opts.logger[level]({ event: "build.reload_failed", err: (e as Error).message }, "kept the current build");
      return false;
    }
    if (next.manifest.build_id === current.manifest.build_id) return false;
    try {
      await opts.prepare?.(current, next);
    } catch (e) {
      opts.logger.error({ event: "build.prepare_failed", err: (e as Error).message }, "switching unprepared");
    }
    const previous = current;
    current = next;
    opts.logger.info(
      {
        event: "build.switched",
        from: previous.manifest.build_id,
        to: next.manifest.build_id,
        reviews: next.manifest.review_count,
      },
      "switched to a new build",
    );
    for (const l of listeners) {
      try {
        await l({ previous, next });
      } catch (e) {
        opts.logger.error(
          { event: "build.listener_failed", err: (e as Error).message },
          "a build switch listener failed",
        );
      }
    }
    return true;
  };

  const manifestPath = join(opts.distDir, MANIFEST_FILE);
  let watcher: StatWatcher | undefined;
  if (opts.watch !== false) {
    watcher = watchFile(manifestPath, { interval: POLL_MS }, (cur, prev) => {
      if (cur.mtimeMs !== prev.mtimeMs || cur.ino !== prev.ino) void store.reload();
    });
    watcher.unref();
  }

  const store: BuildStore = {
    current: () => current,
    reload() {
      chain = chain.then(reloadOnce, reloadOnce);
      return chain;
    },
    onSwitch: (l) => void listeners.push(l),
    close() {
      if (watcher) unwatchFile(manifestPath);
    },
  };
  return store;
}
