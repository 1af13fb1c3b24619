// The commit trigger of npm start and npm run serve -- --watch: a change under CONTENT_DIR rebuilds (debounced,
// one build at a time); the build store then sees the new manifest and the hub notifies subscribers. A failed
// build is retried on the next change and on a timer with backoff, and reported through BuildHealth.
import { relative, sep } from "node:path";
import { watch } from "chokidar";
import type { BuildHealth } from "./build-health.ts";
import type { Logger } from "./logger.ts";

export interface ContentWatcher {
  /** Resolves once the folder is being watched (every file and folder under it seen once). */
  ready: Promise<void>;
  /** Builds now (debounced like a change): the content is newer than the build served. */
  trigger(): void;
  close(): Promise<void>;
}

/** Waits after a failed build, doubling from the first to the last: a broken file is not rebuilt in a loop. */
export const RETRY_DELAYS_MS = { first: 5_000, max: 300_000 };

export function watchContent(opts: {
  contentDir: string;
  debounceMs?: number;
  build: () => Promise<unknown>;
  logger: Logger;
  health?: BuildHealth;
  retry?: { first: number; max: number };
}): ContentWatcher {
  const retry = opts.retry ?? RETRY_DELAYS_MS;
  let timer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelay = retry.first;
  let running = false;
  let again = false;
  let closed = false;

  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    clearTimeout(retryTimer);
    try {
      do {
        again = false;
        const started = Date.now();
        try {
          const summary = await opts.build();
          opts.health?.succeeded(started);
          retryDelay = retry.first;
          opts.logger.info(
            { event: "content.rebuilt", ms: Date.now() - started, ...(summary ? { summary } : {}) },
            "content changed; rebuilt",
          );
        } catch (e) {
          const err = (e as Error).message;
          opts.health?.failed(err);
          if (!again && !closed) {
            retryTimer = setTimeout(() => void run(), retryDelay);
            retryTimer.unref();
          }
          opts.logger.error(
            { event: "content.rebuild_failed", err, retry_in_ms: again ? 0 : retryDelay },
            "rebuild failed; still serving the previous build",
          );
          if (!again) retryDelay = Math.min(retryDelay * 2, retry.max);
        }
      } while (again && !closed);
    } finally {
      running = false;
    }
  };

  // chokidar watches each folder (not each file), so a file replaced by a rename (an editor's atomic save,
  // sed -i) or created in a new folder is seen like any other write; Node's recursive fs.watch loses such files.
  // Dot-files and dot-folders (.git, editors' swap and lock files) are not content.
  const ignored = (path: string) =>
    relative(opts.contentDir, path)
      .split(sep)
      .some((part) => part.startsWith("."));
  const watcher = watch(opts.contentDir, { ignoreInitial: true, atomic: true, ignored });
  const schedule = () => {
    opts.health?.contentChanged();
    clearTimeout(timer);
    timer = setTimeout(() => void run(), opts.debounceMs ?? 500);
  };
  watcher.on("all", (event, path) => {
    opts.logger.debug({ event: "content.changed", change: event, path }, "content changed");
    schedule();
  });
  watcher.on("error", (e) =>
    opts.logger.error({ event: "content.watch_failed", err: (e as Error).message }, "watching CONTENT_DIR failed"),
  );
  const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return {
    ready,
    trigger: schedule,
    async close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(retryTimer);
      await watcher.close();
    },
  };
}
