// Resident set size of another process, from /proc (Linux).
import { spawnSync } from "node:child_process";

export function rssMb(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const status = spawnSync("cat", [`/proc/${pid}/status`], { encoding: "utf8" }).stdout;
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}
