// The embedded hub store's thread (started by sqlite-worker-store.ts): runs the operations it is sent against
// node:sqlite, group-committed. The operations that arrive while one batch commits (an fsync) form the next
// batch, one transaction with a savepoint each: one operation's error undoes only its own writes; a failed
// commit fails every operation of its batch (none of them is stored).
import { parentPort, workerData } from "node:worker_threads";
import { BatchAborted, type HubOperation, openSqliteHubOps, type SqliteHubOps } from "./sqlite-hub-store.ts";

export interface StoreCall {
  id: number;
  op: HubOperation;
  args: unknown[];
}

export type StoreReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

export type StoreStarted = { ready: true } | { ready: false; message: string };

const port = parentPort;
if (!port) throw new Error("sqlite-store-thread.ts runs as a worker thread");
const { path } = workerData as { path: string };

let ops: SqliteHubOps | undefined;
try {
  ops = openSqliteHubOps(path);
  port.postMessage({ ready: true } satisfies StoreStarted);
} catch (e) {
  port.postMessage({ ready: false, message: (e as Error).message } satisfies StoreStarted);
  port.close();
}

let waiting: StoreCall[] = [];
let scheduled = false;

function runBatch(store: SqliteHubOps) {
  scheduled = false;
  const batch = waiting;
  waiting = [];
  const closing = batch.find((c) => c.op === "close");
  let replies: StoreReply[] = [];
  try {
    store.batch(() => {
      for (const c of batch) {
        if (c.op === "close") continue;
        try {
          const value = store.isolated(() => (store[c.op] as (...a: unknown[]) => unknown)(...c.args));
          replies.push({ id: c.id, ok: true, value });
        } catch (e) {
          if (e instanceof BatchAborted) throw e;
          replies.push({ id: c.id, ok: false, message: (e as Error).message });
        }
      }
    });
  } catch (e) {
    const message = (e as Error).message;
    replies = batch.filter((c) => c.op !== "close").map((c) => ({ id: c.id, ok: false, message }));
  }
  if (closing) {
    store.close();
    replies.push({ id: closing.id, ok: true, value: undefined });
  }
  port?.postMessage(replies);
  if (closing) port?.close();
}

if (ops) {
  const store = ops;
  port.on("message", (call: StoreCall) => {
    waiting.push(call);
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => runBatch(store));
    }
  });
}
