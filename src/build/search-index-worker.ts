// A worker thread of the build: encodes the search index from reviews.json's bytes while the main thread writes
// the other files and renders the pages. The dataset is parsed back from those bytes.
import { parentPort, workerData } from "node:worker_threads";
import type { ReviewsDataset } from "../domain/schemas/published.ts";
import { encodeReviewIndex } from "../domain/search/index-writer.ts";
import type { IndexJob } from "./write-search-index.ts";

const { json, reviewOffsets } = workerData as IndexJob;
const dataset = JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString("utf8"));
const index = encodeReviewIndex(dataset as ReviewsDataset, json, reviewOffsets);
parentPort?.postMessage(index, [index.buffer as ArrayBuffer]);
