// Analysis throughput: the given review texts analysed over and over for about `seconds` of CPU time after a
// warm-up pass; reviews per CPU-second, i.e. per core, whatever else the machine is running.
import { analyzeText } from "../../src/analyze-text.ts";

/** CPU time (user and system, every thread) of a process.cpuUsage() difference, in seconds. */
export const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

type Analyse = (parts: readonly string[], neutral: ReadonlySet<string>) => unknown;

export function reviewsPerSecond(
  texts: readonly string[],
  neutral: ReadonlySet<string>,
  seconds = 2,
  analyse: Analyse = analyzeText,
): number {
  for (let k = 0; k < 3; k++) for (const t of texts) analyse([t], neutral);
  let n = 0;
  const start = process.cpuUsage();
  while (cpuSeconds(process.cpuUsage(start)) < seconds) {
    for (const t of texts) analyse([t], neutral);
    n += texts.length;
  }
  return n / cpuSeconds(process.cpuUsage(start));
}

/**
 * Two analyses measured in alternating rounds (`rounds` of each, `seconds` apiece) so that both see the same
 * load: each one's best round, and the ratio b/a of each pair of rounds, sorted.
 */
export function compareThroughput(
  texts: readonly string[],
  neutral: ReadonlySet<string>,
  a: Analyse,
  b: Analyse,
  rounds = 5,
  seconds = 1,
): { a: number; b: number; ratios: number[] } {
  const as: number[] = [];
  const bs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    as.push(reviewsPerSecond(texts, neutral, seconds, a));
    bs.push(reviewsPerSecond(texts, neutral, seconds, b));
  }
  return { a: Math.max(...as), b: Math.max(...bs), ratios: bs.map((x, r) => x / as[r]).sort((x, y) => x - y) };
}
