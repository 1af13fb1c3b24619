// A worker thread of the full build: publishes (analyses) one share of the reviews.
import { parentPort, workerData } from "node:worker_threads";
import { createReviewPublisher } from "../../domain/publish-reviews.ts";
import type { AnalysisJob } from "./analyse-in-workers.ts";

const { business, items } = workerData as AnalysisJob;
const publish = createReviewPublisher(business);
parentPort?.postMessage(items.map(({ id, content }) => publish(id, content)));
