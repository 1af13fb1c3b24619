// A worker thread of the build: stats the review files (content-snapshot.ts) while the main thread reads the
// content snapshot. Posts [size, mtimeMs, ctimeMs, ino] of each path, in order, as one Float64Array.
import { parentPort, workerData } from "node:worker_threads";
import { type StatJob, statAll } from "./content-snapshot.ts";

const { dir, paths } = workerData as StatJob;
const out = statAll(dir, paths);
parentPort?.postMessage(out, [out.buffer]);
