// Analysis of many reviews on every core: the reviews are split into one contiguous share per worker thread.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { createReviewPublisher, type PublishReview } from "../../domain/publish-reviews.ts";
import type { BusinessContent, ReviewContent } from "../../domain/schemas/content.ts";

export interface AnalysisJob {
  business: BusinessContent;
  items: { id: string; content: ReviewContent }[];
}

type Published = ReturnType<PublishReview>;

/** Below this many reviews, starting threads costs more than it saves. */
const MIN_FOR_WORKERS = 2000;

function runWorker(job: AnalysisJob): Promise<Published[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./analysis-worker.ts", import.meta.url), { workerData: job });
    worker.once("message", (out: Published[]) => {
      resolve(out);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`an analysis worker exited with code ${code}`));
    });
  });
}

/** Results in the order of `items`; the same as publishing them one by one on this thread. */
export async function analyseInWorkers(job: AnalysisJob): Promise<Published[]> {
  const threads = Math.min(availableParallelism(), Math.floor(job.items.length / (MIN_FOR_WORKERS / 2)));
  if (threads < 2) {
    const publish = createReviewPublisher(job.business);
    return job.items.map(({ id, content }) => publish(id, content));
  }
  const share = Math.ceil(job.items.length / threads);
  const parts = await Promise.all(
    Array.from({ length: threads }, (_, i) =>
      runWorker({ business: job.business, items: job.items.slice(i * share, (i + 1) * share) }),
    ),
  );
  return parts.flat();
}
