// Analysis of many reviews on every core: the reviews are split into one contiguous share per worker thread.
import { availableParallelism } from "node:os";
import { createInsightParts, type ReviewInsightParts } from "../../domain/insights/review-parts.ts";
import { createReviewPublisher, type PublishReview } from "../../domain/publish-reviews.ts";
import type { BusinessContent, ReviewContent } from "../../domain/schemas/content.ts";
import { runWorker } from "../run-worker.ts";

export interface AnalysisJob {
  business: BusinessContent;
  items: { id: string; content: ReviewContent }[];
}

/** One review's published record (analysis included) and its parts of the insights. */
export interface Analysed {
  published: ReturnType<PublishReview>;
  parts: ReviewInsightParts;
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
  runWorker<Analysed[]>(new URL("./analysis-worker.ts", import.meta.url), job, "an analysis worker");

/**
 * Results in the order of `items`; the same as publishing them one by one on this thread. With many reviews,
 * one share per core: this thread analyses the first while worker threads analyse the others.
 */
export async function analyseInWorkers(job: AnalysisJob, minForWorkers = MIN_FOR_WORKERS): Promise<Analysed[]> {
  const shares = job.items.length < minForWorkers ? 1 : availableParallelism();
  const size = Math.ceil(job.items.length / shares);
  const share = (i: number) => job.items.slice(i * size, (i + 1) * size);
  const others = Array.from({ length: shares - 1 }, (_, i) =>
    runShare({ business: job.business, items: share(i + 1) }),
  );
  const analyse = createAnalyser(job.business);
  const first = share(0).map(({ id, content }) => analyse(id, content));
  return [first, ...(await Promise.all(others))].flat();
}
