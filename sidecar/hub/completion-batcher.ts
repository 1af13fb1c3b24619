// Group commit for completions (a delivery acknowledged, a verification run): each caller waits for its own
// item, and the items that arrive within `lingerMs` of the first, or while the previous batch commits, go to the
// store together as one transaction. So the store's cost per delivery is a fraction of a commit, and a crash
// loses the outcome of at most the items not yet committed: their claims lapse and they run again
// (at-least-once). Callers hold a claimed row each, so the pump's concurrency bounds what can wait here.
export interface CompletionBatcher<T> {
  /** Resolves once `item` is committed; rejects when its batch failed (the item's claim then lapses). */
  add(item: T): Promise<void>;
  /** Commits what is waiting now and resolves when nothing is waiting or committing. */
  flush(): Promise<void>;
}

export interface CompletionBatcherOptions<T> {
  commit(items: T[]): Promise<void>;
  /** How long the first item of a batch waits for others. */
  lingerMs: number;
  /** A batch this large commits at once. */
  max: number;
}

interface Waiting<T> {
  item: T;
  resolve(): void;
  reject(e: unknown): void;
}

export function createCompletionBatcher<T>(opts: CompletionBatcherOptions<T>): CompletionBatcher<T> {
  const waiting: Waiting<T>[] = [];
  let timer: NodeJS.Timeout | undefined;
  let committing: Promise<void> | undefined;

  // One batch at a time: what arrives while one commits forms the next, so a slow commit grows the batches
  // instead of queueing commits behind it.
  function run() {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (committing || waiting.length === 0) return;
    const batch = waiting.splice(0, opts.max);
    committing = opts
      .commit(batch.map((w) => w.item))
      .then(
        () => {
          for (const w of batch) w.resolve();
        },
        (e) => {
          for (const w of batch) w.reject(e);
        },
      )
      .finally(() => {
        committing = undefined;
        if (waiting.length >= opts.max) run();
        else if (waiting.length > 0) arm();
      });
  }

  function arm() {
    if (!timer && !committing) timer = setTimeout(run, opts.lingerMs);
  }

  return {
    add(item) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (waiting.length >= opts.max) run();
        else arm();
      });
    },
    async flush() {
      while (committing || waiting.length > 0) {
        if (!committing) run();
        await committing;
      }
    },
  };
}
