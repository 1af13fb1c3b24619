// With RPS_TEST_CPU_LOG set (scripts/test.ts --cpu), each test process appends, as it exits, the CPU time its file
// cost: its own and that of the processes it started and waited for (builds, sidecars, nginx, Chromium). On a busy
// machine wall time says little; CPU seconds show which files make the run long.
import { appendFileSync, readFileSync } from "node:fs";
import { relative } from "node:path";

export interface CpuEntry {
  file: string;
  /** CPU seconds of the test process itself. */
  self: number;
  /** CPU seconds of the processes it started that have ended. */
  children: number;
}

const log = process.env.RPS_TEST_CPU_LOG;
const file = process.argv[1];
// Only test files: a process a test starts with node:test's environment (a fixture, a worker) is counted in the
// test file's own line once the test has waited for it.
if (log && file?.endsWith(".test.ts") && process.env.NODE_TEST_CONTEXT === "child-v8") {
  // Registered after the exit cleanups (tests/helpers/cleanup.ts), so what they stop is counted too.
  process.once("exit", () => {
    // /proc/self/stat: utime, stime, cutime, cstime in clock ticks (fields 14-17), after the command in parentheses.
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    const tick = (i: number) => Number(fields[i - 3]) / 100;
    const entry: CpuEntry = {
      file: relative(process.cwd(), file),
      self: tick(14) + tick(15),
      children: tick(16) + tick(17),
    };
    appendFileSync(log, `${JSON.stringify(entry)}\n`);
  });
}
