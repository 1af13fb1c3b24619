// Analysis of many reviews on every core: the reviews are split into one contiguous share per worker thread.
import { availableParallelism } from "node:os";
import { createInsightParts, type ReviewInsightParts } from "../../domain/insights/review-parts.ts";
import { createReviewPublisher, type PublishReview } from "../../domain/publish-reviews.ts";
import type { BusinessContent, ReviewContent } from "../../domain/schemas/content.ts";
import { runWorker } from "../run-worker.ts";
import { cacheLine, parseCacheLines } from "./cache-line.ts";

export interface AnalysisJob {
  business: BusinessContent;
  /** `key`: the review's key in the analysis cache (analysis-cache.ts). */
  items: { id: string; key: string; content: ReviewContent }[];
}

/** The results in the order of the job's items, and the same as the analysis cache's lines. */
export interface AnalysedItems {
  results: Analysed[];
  lines: string;
}

/** One review's published record (analysis included) and its parts of the insights. */
export interface Analysed {
  published: ReturnType<PublishReview>;
  parts: ReviewInsightParts;
  /**
   * JSON.stringify(published.record) as UTF-8, when the record was read back from it (cache-line.ts): a view of the
   * bytes read, not a string, so that 100,000 of them are not copied through the young generation into the old.
   */
  recordJson?: Buffer;
}

/** Analyses one review: what the cache keeps for it. */
export function createAnalyser(business: BusinessContent): (id: string, content: ReviewContent) => Analysed {
  const publish = createReviewPublisher(business);
  const partsOf = createInsightParts(business);
  return (id, content) => {
    const published = publish(id, content);
    return { published, parts: partsOf(published.record) };
  };
}

/**
 * Below this many reviews, starting a thread and copying results back costs about what it saves (measured:
 * at 10,000 reviews one worker was slower than none; at 93,000, two shares ran in 0.6x the time of one).
 */
const MIN_FOR_WORKERS = 20_000;

const runShare = (job: AnalysisJob) =>
  runWorker<string>(new URL("./analysis-worker.ts", import.meta.url), job, "an analysis worker");

/**
 * Results in the order of `items`; the same as publishing them one by one on this thread. With many reviews,
 * one share per core, each in a worker thread: this thread stays free for Astro, which bundles meanwhile
 * (src/build/build-site.ts) and calls back into this thread for every module.
 */
export async function analyseInWorkers(job: AnalysisJob, minForWorkers = MIN_FOR_WORKERS): Promise<AnalysedItems> {
  if (job.items.length < minForWorkers) {
    const analyse = createAnalyser(job.business);
    const results = job.items.map(({ id, content }) => analyse(id, content));
    return { results, lines: results.map((r, i) => cacheLine(job.items[i].key, r)).join("") };
  }
  const shares = availableParallelism();
  const size = Math.ceil(job.items.length / shares);
  const share = (i: number) => job.items.slice(i * size, (i + 1) * size);
  const lines = (
    await Promise.all(Array.from({ length: shares }, (_, i) => runShare({ business: job.business, items: share(i) })))
  ).join("");
  const results = Array.from(parseCacheLines(lines), ([, value]) => value);
  if (results.length !== job.items.length) throw new Error("an analysis worker sent a line that does not parse");
  return { results, lines };
}
