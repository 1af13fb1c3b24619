// Analysis throughput: the texts of the labelled sets, analysed over and over on one core for about a
// second after a warm-up; reviews per second.
import { analyzeText } from "../../src/domain/analysis/analyze-text.ts";

export function reviewsPerSecond(texts: readonly string[], neutral: ReadonlySet<string>, seconds = 1): number {
  for (const t of texts) analyzeText([t], neutral);
  let n = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(Math.round(seconds * 1e9));
  while (process.hrtime.bigint() - start < budget) {
    for (const t of texts) analyzeText([t], neutral);
    n += texts.length;
  }
  return n / (Number(process.hrtime.bigint() - start) / 1e9);
}
