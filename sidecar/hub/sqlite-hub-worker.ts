// The worker thread behind sqlite-hub-thread.ts: opens the hub's SQLite store and answers each call
// ({ id, method, args }) with { id, value } or { id, error }. The first message says whether the store opened.
import { parentPort, workerData } from "node:worker_threads";
import type { HubStore } from "./hub-store.ts";
import { openSqliteHubStore } from "./sqlite-hub-store.ts";

type Call = { id: number; method: Exclude<keyof HubStore, "kind">; args: unknown[] };

const port = parentPort;
if (!port) throw new Error("sqlite-hub-worker.ts runs as a worker thread (sqlite-hub-thread.ts starts it)");
let store: HubStore;
try {
  store = openSqliteHubStore(workerData as string);
  port.postMessage({ id: 0 });
} catch (e) {
  port.postMessage({ id: 0, error: e }); // the main thread terminates this thread
}
port.on("message", async ({ id, method, args }: Call) => {
  // Calls are answered in the order they come, each whole: the store's methods do not await in between.
  try {
    const fn = store[method] as (...a: unknown[]) => Promise<unknown>;
    port.postMessage({ id, value: await fn(...args) });
  } catch (e) {
    port.postMessage({ id, error: e });
  }
});
