// A worker thread of the build: encodes the search index from what it reads of each review (packed by
// write-search-index.ts) while the main thread writes the other files and renders the pages.
import { parentPort, workerData } from "node:worker_threads";
import { encodeIndexColumns } from "../domain/search/index-writer.ts";
import { type IndexJob, unpackReviews } from "./write-search-index.ts";

const { catalog, layout, reviews } = workerData as IndexJob;
const index = encodeIndexColumns(catalog, unpackReviews(reviews, catalog), layout);
parentPort?.postMessage(index, [index.buffer as ArrayBuffer]);
