// npm start's commit trigger: a change under CONTENT_DIR rebuilds (debounced, one build at a time); the
// build store then sees the new manifest and the hub notifies subscribers.
import { type FSWatcher, watch } from "node:fs";
import type { Logger } from "./logger.ts";

export interface ContentWatcher {
  close(): void;
}

export function watchContent(opts: {
  contentDir: string;
  debounceMs?: number;
  build: () => Promise<unknown>;
  logger: Logger;
}): ContentWatcher {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;

  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const started = Date.now();
        try {
          await opts.build();
          opts.logger.info({ event: "content.rebuilt", ms: Date.now() - started }, "content changed; rebuilt");
        } catch (e) {
          opts.logger.error(
            { event: "content.rebuild_failed", err: (e as Error).message },
            "rebuild failed; still serving the previous build",
          );
        }
      } while (again);
    } finally {
      running = false;
    }
  };

  const watcher: FSWatcher = watch(opts.contentDir, { recursive: true }, () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void run(), opts.debounceMs ?? 500);
  });
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
