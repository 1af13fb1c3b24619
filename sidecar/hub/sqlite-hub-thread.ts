// The embedded hub store (sqlite-hub-store.ts) run in a worker thread. node:sqlite's calls are synchronous and,
// with synchronous=FULL, each commit waits for an fsync: tens to hundreds of milliseconds on a busy disk, which
// on the main thread stalls every request (bench/reload.ts: recording the topics of a build switch was the
// longest event-loop stall of a reload). Here the main thread only posts a message and awaits the answer.
import { Worker } from "node:worker_threads";
import type { HubStore } from "./hub-store.ts";

type Reply = { id: number; value?: unknown; error?: unknown };

const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));

/** Opens the SQLite store at `path` in a new worker thread; rejects with the store's own error when it cannot. */
export async function openSqliteHubThread(path: string): Promise<HubStore> {
  const worker = new Worker(new URL("./sqlite-hub-worker.ts", import.meta.url), { workerData: path });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let gone: Error | undefined;
  const fail = (e: Error) => {
    gone ??= e;
    for (const w of waiting.values()) w.reject(gone);
    waiting.clear();
  };
  const opened = new Promise<void>((resolve, reject) => {
    waiting.set(0, { resolve: () => resolve(), reject });
  });
  worker.on("message", ({ id, value, error }: Reply) => {
    const w = waiting.get(id);
    waiting.delete(id);
    if (waiting.size === 0) worker.unref();
    if (error !== undefined) w?.reject(asError(error));
    else w?.resolve(value);
  });
  worker.on("error", (e) => fail(new Error(`the hub store's thread failed: ${e.message}`)));
  worker.on("exit", (code) => fail(new Error(`the hub store's thread exited (code ${code})`)));
  try {
    await opened;
  } catch (e) {
    await worker.terminate();
    throw e;
  }
  // The thread keeps the process alive only while a call waits for its answer (as a database socket would).
  const call = (method: string, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      if (gone) return reject(gone);
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, method, args });
    });
  const method =
    <K extends Exclude<keyof HubStore, "kind">>(name: K) =>
    (...args: unknown[]) =>
      call(name, args);

  return {
    kind: "sqlite",
    addPending: method("addPending"),
    claimPending: method("claimPending"),
    finishPending: method("finishPending"),
    recordTopic: method("recordTopic"),
    claimDue: method("claimDue"),
    nextDueAt: method("nextDueAt"),
    release: method("release"),
    delivered: method("delivered"),
    failed: method("failed"),
    remove: method("remove"),
    get: method("get"),
    importSubscription: method("importSubscription"),
    sweepLapsed: method("sweepLapsed"),
    list: method("list"),
    stats: method("stats"),
    ping: async () => gone?.message ?? null,
    async close() {
      if (!gone) await call("close", []);
      await worker.terminate();
    },
  } as HubStore;
}
