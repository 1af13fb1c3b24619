// A worker thread of the build: stats the review files (content-snapshot.ts) while the main thread reads the
// content snapshot. Posts [size, mtimeMs, ctimeMs, ino] of each path, in order, as one Float64Array.
import { statSync } from "node:fs";
import { join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import type { StatJob } from "./content-snapshot.ts";

const { dir, paths } = workerData as StatJob;
const out = new Float64Array(paths.length * 4);
paths.forEach((path, i) => {
  const s = statSync(join(dir, path));
  out.set([s.size, s.mtimeMs, s.ctimeMs, s.ino], i * 4);
});
parentPort?.postMessage(out, [out.buffer]);
