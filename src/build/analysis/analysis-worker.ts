// A worker thread of the full build: analyses one share of the reviews and posts them as cache lines.
import { parentPort, workerData } from "node:worker_threads";
import { type AnalysisJob, createAnalyser } from "./analyse-in-workers.ts";
import { cacheLine } from "./cache-line.ts";

const { business, items } = workerData as AnalysisJob;
const analyse = createAnalyser(business);
parentPort?.postMessage(items.map(({ id, key, content }) => cacheLine(key, analyse(id, content))).join(""));
