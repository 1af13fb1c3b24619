// The build's per-review analysis on one thread: what the analysis phase does for every review that is not in the
// cache (createAnalyser: mentions, analyzeText, the published record, the insight parts; then its cache line),
// over seeded generated reviews, in reviews per CPU-second. Run alone in its own process (node
// bench/analysis-rate.ts [count] [passes]), so that its CPU time is its own; prints one line of JSON.

import { sampleBusiness } from "../scripts/content-generator/business.ts";
import { generateReviews } from "../scripts/content-generator/generate.ts";
import { createAnalyser } from "../src/build/analysis/analyse-in-workers.ts";
import { cacheLine } from "../src/build/analysis/cache-line.ts";
import { BusinessContent, ReviewContent } from "../src/domain/schemas/content.ts";

/** CPU time (user and system, every thread) of a process.cpuUsage() difference, in seconds. */
const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

export interface AnalysisRate {
  reviews: number;
  /** Reviews per CPU-second of each measured pass, in the order run. */
  passes: number[];
}

/**
 * `passes` passes over `count` reviews (the bench's content: seed 7, the same date range), after two unmeasured
 * passes (the first measured pass after only one still ran 10-30% slower: the code was still being optimised);
 * each pass starts a fresh analyser, as a build does.
 */
export function analysisRate(count: number, passes: number): AnalysisRate {
  const business = BusinessContent.parse(sampleBusiness);
  const items = generateReviews({ count, seed: 7, from: "2016-01-01", to: "2026-11-15" }).map((f, i) => ({
    id: `r${i}`,
    content: ReviewContent.parse(f.json),
  }));
  let bytes = 0;
  const pass = () => {
    const analyse = createAnalyser(business);
    for (const { id, content } of items) bytes += cacheLine(id, analyse(id, content)).length;
  };
  pass();
  pass();
  const rates: number[] = [];
  for (let p = 0; p < passes; p++) {
    const start = process.cpuUsage();
    pass();
    rates.push(count / cpuSeconds(process.cpuUsage(start)));
  }
  if (bytes === 0) throw new Error("the analysis wrote no cache lines");
  return { reviews: count, passes: rates };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [count = "10000", passes = "5"] = process.argv.slice(2);
  console.log(JSON.stringify(analysisRate(Number(count), Number(passes))));
}
