// Analysis throughput: the given review texts analysed over and over for about `seconds` of CPU time after a
// warm-up pass; reviews per CPU-second, i.e. per core, whatever else the machine is running.
import { analyzeText } from "../../src/domain/analysis/analyze-text.ts";

const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

export function reviewsPerSecond(texts: readonly string[], neutral: ReadonlySet<string>, seconds = 2): number {
  for (let k = 0; k < 3; k++) for (const t of texts) analyzeText([t], neutral);
  let n = 0;
  const start = process.cpuUsage();
  while (cpuSeconds(process.cpuUsage(start)) < seconds) {
    for (const t of texts) analyzeText([t], neutral);
    n += texts.length;
  }
  return n / cpuSeconds(process.cpuUsage(start));
}
