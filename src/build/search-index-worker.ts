// A worker thread of the build: encodes the search index from reviews.json's bytes while the main thread runs
// Astro. The dataset is parsed back from those bytes; the encoder checks every review's bytes against them.
import { parentPort, workerData } from "node:worker_threads";
import type { ReviewsDataset } from "../domain/schemas/published.ts";
import { encodeReviewIndex } from "../domain/search/index-writer.ts";

const json = workerData as Uint8Array;
const dataset = JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString("utf8"));
const index = encodeReviewIndex(dataset as ReviewsDataset, json);
parentPort?.postMessage(index, [index.buffer as ArrayBuffer]);
