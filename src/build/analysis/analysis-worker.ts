// A worker thread of the full build: analyses one share of the reviews.
import { parentPort, workerData } from "node:worker_threads";
import { type AnalysisJob, createAnalyser } from "./analyse-in-workers.ts";

const { business, items } = workerData as AnalysisJob;
const analyse = createAnalyser(business);
parentPort?.postMessage(items.map(({ id, content }) => analyse(id, content)));
