// CPU time of processes, for CPU per answered request: less disturbed than throughput on a shared, loaded
// machine, and it tells the server's cost from the load generator's.
import { readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds `pid` has used so far in user and in kernel mode, from /proc/<pid>/stat (Linux); NaN when it is gone. */
export function cpuTimes(pid: number): { user: number; system: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
  } catch {
    return { user: Number.NaN, system: Number.NaN };
  }
}

/** CPU seconds of this process (the load generator, autocannon, runs on its main thread). */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** The pids of `pid`'s children (nginx's worker under its master), from /proc (Linux). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Seconds the main thread of `pid` has been ready to run but waiting for a CPU (/proc/<pid>/schedstat, Linux):
 * on a shared machine, how much of a latency is the machine's rather than the process's own work.
 */
export function runQueueWaitSeconds(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[1]) / 1e9;
  } catch {
    return Number.NaN;
  }
}

/** Seconds in which some runnable task of the machine waited for a CPU, so far (/proc/pressure/cpu, Linux). */
export function cpuPressureSeconds(): number {
  try {
    return Number(/^some .*total=(\d+)/m.exec(readFileSync("/proc/pressure/cpu", "utf8"))?.[1]) / 1e6;
  } catch {
    return Number.NaN;
  }
}
