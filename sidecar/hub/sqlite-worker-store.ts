// The embedded hub store as the sidecar uses it: node:sqlite on its own thread (sqlite-store-thread.ts), the
// same HubStore interface, one message each way per operation. An fsync, a checkpoint or a disk that stalls
// for a second waits on that thread, never on the event loop, so requests (a hub POST included) are served
// meanwhile; synchronous=FULL stays, so an acknowledged request survives a power cut, and the thread's group
// commit keeps that to one fsync per batch of operations instead of one per operation.
import { Worker } from "node:worker_threads";
import type { HubStore } from "./hub-store.ts";
import type { HubOperation } from "./sqlite-hub-store.ts";
import type { StoreCall, StoreReply, StoreStarted } from "./sqlite-store-thread.ts";

// Every operation of the interface (the compiler checks the list is complete).
const OPERATIONS = Object.keys({
  addPending: true,
  claimPending: true,
  finishPending: true,
  finishPendingBatch: true,
  recordTopic: true,
  claimDue: true,
  nextDueAt: true,
  release: true,
  delivered: true,
  deliveredBatch: true,
  failed: true,
  remove: true,
  get: true,
  importSubscription: true,
  sweepLapsed: true,
  list: true,
  stats: true,
  ping: true,
  close: true,
} satisfies Record<HubOperation, true>) as HubOperation[];

export async function openSqliteWorkerStore(path: string): Promise<HubStore> {
  // No preloads (--import) from the parent: the thread needs none, and a preload may have side effects of its own.
  const worker = new Worker(new URL("./sqlite-store-thread.ts", import.meta.url), {
    workerData: { path },
    execArgv: [],
  });
  const started = await new Promise<StoreStarted>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  if (!started.ready) {
    await worker.terminate();
    throw new Error(started.message);
  }

  const calls = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  let stopped: Error | undefined;
  // The thread keeps the process alive only while an answer is awaited (a forgotten close never hangs it).
  worker.unref();
  const settle = (id: number) => {
    const call = calls.get(id);
    calls.delete(id);
    if (calls.size === 0) worker.unref();
    return call;
  };
  const stop = (e: Error) => {
    stopped ??= e;
    for (const id of [...calls.keys()]) settle(id)?.reject(stopped);
  };
  worker.on("message", (replies: StoreReply[]) => {
    for (const r of replies) {
      const call = settle(r.id);
      if (r.ok) call?.resolve(r.value);
      else call?.reject(new Error(r.message));
    }
  });
  worker.on("error", stop);
  worker.on("exit", (code) => stop(new Error(`the hub store's thread stopped (exit code ${code})`)));

  const call = (op: HubOperation, args: unknown[]) => {
    if (stopped) return Promise.reject(stopped);
    return new Promise((resolve, reject) => {
      const id = nextId++;
      // Throws (and so rejects) for arguments that cannot be copied to the thread, before anything waits.
      worker.postMessage({ id, op, args } satisfies StoreCall);
      if (calls.size === 0) worker.ref();
      calls.set(id, { resolve, reject });
    });
  };
  const store: Record<string, unknown> = { kind: "sqlite" };
  for (const op of OPERATIONS) store[op] = (...args: unknown[]) => call(op, args);
  store.ping = async () => {
    try {
      return (await call("ping", [])) as string | null;
    } catch (e) {
      return (e as Error).message;
    }
  };
  store.close = async () => {
    if (stopped) return;
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    await call("close", []);
    // Until the thread has ended, the process waits for it (a command line that closes the store and ends).
    worker.ref();
    await exited;
  };
  return store as unknown as HubStore;
}
