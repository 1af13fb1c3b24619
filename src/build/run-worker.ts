// One job in a worker thread (the build's analysis shares and the search index): the module at `script` gets
// `workerData` and posts one message, its result.
import { Worker } from "node:worker_threads";

/** The worker's one message; `what` names it in the error when it exits without one. */
export function runWorker<T>(script: URL, workerData: unknown, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData });
    worker.once("message", (out: T) => {
      resolve(out);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`${what} exited with code ${code}`));
    });
  });
}
