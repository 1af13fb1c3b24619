// npm test and its parts: node scripts/test.ts [main|unit|system|slow|all] [--concurrency=N] [--list] [--cpu] [FILE…]
// main (npm test) = unit + system; slow (npm run test:slow) is what CI runs besides; all = the three at once.
// Picks the test files of a part, checks that what the part needs is installed (saying how to install what is
// not), and runs them with node:test, several files at once: each test file runs in its own process with its
// own temporary folders, databases and ports (tests/helpers/paths.ts), so files share no state.
import "../src/require-node-version.ts";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { glob } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { CpuEntry } from "../tests/helpers/cpu-ledger.ts";
import { writeSampleContent } from "./content-generator/sample.ts";
import type { FileReport } from "./test/complete-reports.ts";
import { missingPrerequisites } from "./test/prerequisites.ts";

const PARTS = ["main", "unit", "system", "slow", "all"] as const;
type Part = (typeof PARTS)[number];

/**
 * Minutes-long checks (retraining a model, the evaluation command line): test:slow, which CI runs after npm test
 * (.ci/run), so that npm test stays a loop of a few minutes.
 */
const SLOW_FILES = new Set(["text-model.test.ts", "eval-sets.test.ts"]);

/**
 * Files that measure their own process's memory or time against a bound: run after the others, one at a time,
 * so a busy machine does not decide their outcome.
 */
const ALONE_FILES = new Set(["mcp-memory.test.ts"]);

async function files(patterns: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const p of patterns) for await (const f of glob(p)) found.push(f);
  return found.sort();
}

async function filesOf(part: Part): Promise<string[]> {
  const unitAndPackages = await files(["tests/unit/**/*.test.ts", "packages/*/tests/**/*.test.ts"]);
  const system = await files(["tests/{build,import,integration,browser}/**/*.test.ts"]);
  const isSlow = (f: string) => SLOW_FILES.has(basename(f));
  if (part === "unit") return unitAndPackages.filter((f) => !isSlow(f));
  if (part === "slow") return unitAndPackages.filter(isSlow);
  if (part === "system") return system;
  if (part === "main") return [...system, ...unitAndPackages.filter((f) => !isSlow(f))];
  // Slow files first, so their minutes overlap with everything else.
  return [...unitAndPackages.filter(isSlow), ...system, ...unitAndPackages.filter((f) => !isSlow(f))];
}

interface SharedSample {
  /** The build cache of that build: the page bundle Astro made (keyed by the code), the reviews' analysis
   * and the compressed variants (keyed by the bytes they were made from). */
  cache: string;
  /** The sample's published files, for BASE_URL http://localhost:4321. */
  dist: string;
}

/**
 * Most system test files serve the sample: building it in each (a few CPU-seconds each, dozens of times a run)
 * would cost more than all the unit tests. One build here, of the same seeded content with the same code, gives a
 * dist/ that tests/helpers/build.ts buildSample() copies (a copy each: nothing is shared), and a build cache that
 * tests/helpers/paths.ts copies into each test process's own, so that a test's own builds of unchanged code
 * skip Astro and analyse and compress only what differs from the sample, as on a developer's machine. The build is
 * reproducible and its caches are keyed by what made them, so a copy equals a build of its own.
 */
async function buildSharedSample(dir: string): Promise<SharedSample | undefined> {
  const content = join(dir, "content");
  await writeSampleContent(content);
  const env = {
    ...process.env,
    CONTENT_DIR: content,
    DIST_DIR: join(dir, "dist"),
    BUILD_CACHE_DIR: join(dir, "cache"),
  };
  const run = spawnSync(process.execPath, ["scripts/build.ts"], { env: { ...env, BASE_URL: "http://localhost:4321" } });
  if (run.status !== 0) {
    console.error(`(the sample did not build, so each test file builds its own)\n${run.stderr}`);
    return undefined;
  }
  return { cache: join(dir, "cache"), dist: join(dir, "dist") };
}

/**
 * Runs the files with node:test and resolves to its exit code, or to 1 when a file's report did not arrive whole
 * (its process ended before sending all its results): node:test itself passes such a run with fewer tests.
 */
async function runNodeTest(list: string[], concurrency: number, reportDir: string, env = process.env): Promise<number> {
  if (!list.length) return 0;
  const reports = join(reportDir, `reports-${concurrency}-${list.length}-${Date.now()}.jsonl`);
  const args = [
    "--test",
    `--test-concurrency=${concurrency}`,
    // A test process ends when its tests have, even if a failed test left a server or child running; its exit
    // cleanups (tests/helpers/cleanup.ts) then stop them. Its last results are not lost on the way out
    // (tests/helpers/report-pipe.ts), and completeReports checks that.
    "--test-force-exit",
    // A test that hangs (a wait with no bound, a process that never exits) fails after 20 minutes instead of holding
    // the run until CI's own limit; the slowest test takes about 6 minutes on a loaded machine.
    "--test-timeout=1200000",
    // Every test process, also one whose file imports no helper, gets its own CONTENT_DIR, DIST_DIR,
    // BUILD_CACHE_DIR and DATA_DIR and cleans up at exit.
    "--import=./tests/helpers/paths.ts",
    "--test-reporter=spec",
    "--test-reporter-destination=stdout",
    "--test-reporter=./scripts/test/complete-reports.ts",
    `--test-reporter-destination=${reports}`,
    ...list,
  ];
  const child = spawn(process.execPath, args, { stdio: "inherit", env });
  // Ctrl-C reaches the runner and its test processes alike; the runner just waits for them to clean up.
  const ignore = () => undefined;
  process.on("SIGINT", ignore);
  const code = await new Promise<number>((done) =>
    child.on("exit", (exitCode, signal) => {
      process.off("SIGINT", ignore);
      done(exitCode ?? (signal ? 1 : 0));
    }),
  );
  const problems = incompleteReports(list, reports);
  if (!problems.length) return code;
  console.error(`\nSome test files ran tests whose results did not all arrive, so this run cannot pass:`);
  for (const p of problems) console.error(`  - ${p}`);
  return code || 1;
}

/** What is wrong with the reports of the launched files: one line per file whose report is missing or short. */
function incompleteReports(list: string[], reportsFile: string): string[] {
  let text = "";
  try {
    text = readFileSync(reportsFile, "utf8");
  } catch {
    // no file sent a summary
  }
  const byFile = new Map<string, FileReport>();
  for (const line of text.split("\n"))
    if (line) {
      const r = JSON.parse(line) as FileReport;
      byFile.set(r.file, r);
    }
  const problems: string[] = [];
  for (const f of list) {
    const r = byFile.get(resolve(f));
    if (!r) problems.push(`${f}: no summary came from its process (it exited early, was killed or never started)`);
    else if (r.received < r.declared)
      problems.push(`${f}: ran ${r.declared} tests, the results of ${r.received} arrived`);
  }
  return problems;
}

/** The CPU seconds each test file cost (tests/helpers/cpu-ledger.ts), most first. */
function printCpu(logFile: string): void {
  let text = "";
  try {
    text = readFileSync(logFile, "utf8");
  } catch {
    return;
  }
  const entries = text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CpuEntry)
    .sort((a, b) => b.self + b.children - (a.self + a.children));
  const total = entries.reduce((sum, e) => sum + e.self + e.children, 0);
  console.log(
    `\nCPU seconds per test file (the file's process + the processes it started), ${total.toFixed(0)} in all:`,
  );
  for (const e of entries)
    console.log(
      `${(e.self + e.children).toFixed(1).padStart(7)}  (${e.self.toFixed(1)} + ${e.children.toFixed(1)})  ${e.file}`,
    );
}

const args = process.argv.slice(2);
const part = (args.find((a) => (PARTS as readonly string[]).includes(a)) ?? "main") as Part;
const given = args.filter((a) => a.endsWith(".ts"));
const concurrencyArg = args.find((a) => a.startsWith("--concurrency="));
/**
 * One test file per core (at least two). Two per core would fill the time a system test file spends waiting, but
 * it has not been measured on an idle machine, and on a busy one it makes each file's waits longer: until it is,
 * `--concurrency=N` tries it.
 */
const concurrency = concurrencyArg ? Number(concurrencyArg.split("=")[1]) : Math.max(2, availableParallelism());
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`--concurrency must be a whole number of at least 1 (not ${concurrencyArg})`);
  process.exit(2);
}

const cpu = args.includes("--cpu");
const list = given.length ? given : await filesOf(part);
if (args.includes("--list")) {
  console.log(list.join("\n"));
  process.exit(0);
}
if (part !== "unit" || given.length) {
  const missing = await missingPrerequisites(part === "slow" ? [] : list);
  if (missing.length) {
    console.error("Some tests need software that is missing on this machine:\n");
    for (const m of missing) console.error(`  - ${m.what}\n      ${m.fix}`);
    console.error("\nInstall it and run again; `npm run test:unit` needs none of it.");
    process.exit(1);
  }
}

const started = Date.now();
const together = list.filter((f) => !ALONE_FILES.has(basename(f)));
const alone = list.filter((f) => ALONE_FILES.has(basename(f)));
const runDir = mkdtempSync(join(tmpdir(), "rps-test-run-"));
let code = 1;
try {
  const systemFiles = list.filter((f) => f.startsWith("tests/") && !f.startsWith("tests/unit/")).length;
  const sample = systemFiles >= 5 ? await buildSharedSample(runDir) : undefined;
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (sample) Object.assign(env, { RPS_TEST_BUILD_CACHE: sample.cache, RPS_TEST_SAMPLE_DIST: sample.dist });
  if (cpu) env.RPS_TEST_CPU_LOG = join(runDir, "cpu.jsonl");
  // Hundreds of Node processes start during a run (test files, sidecars, builds, command lines), each compiling
  // the same modules: Node's own compile cache, shared by the run's processes, halves what a start costs.
  env.NODE_COMPILE_CACHE ??= join(runDir, "compile-cache");
  code = await runNodeTest(together, concurrency, runDir, env);
  if (alone.length) code = (await runNodeTest(alone, 1, runDir, env)) || code;
  if (cpu) printCpu(join(runDir, "cpu.jsonl"));
} finally {
  // A test process stopped by Ctrl-C may still be writing its last line here as the runner gets to this.
  rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
}
console.log(`${part}: ${list.length} test files in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(code);
