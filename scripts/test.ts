// npm test and its parts: node scripts/test.ts [unit|system|slow|all] [--concurrency=N] [--list] [FILE…]
// Picks the test files of a part, checks that what the part needs is installed (saying how to install what is
// not), and runs them with node:test, several files at once: each test file runs in its own process with its
// own temporary folders, databases and ports (tests/helpers/paths.ts), so files share no state.
import "../src/require-node-version.ts";
import { spawn } from "node:child_process";
import { glob } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { basename } from "node:path";
import { missingPrerequisites } from "./test/prerequisites.ts";

const PARTS = ["unit", "system", "slow", "all"] as const;
type Part = (typeof PARTS)[number];

/** Minutes-long checks (retraining a model, the evaluation command line): test:slow, which npm test also runs. */
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
  // Slow files first, so their minutes overlap with everything else.
  return [...unitAndPackages.filter(isSlow), ...system, ...unitAndPackages.filter((f) => !isSlow(f))];
}

function runNodeTest(list: string[], concurrency: number): Promise<number> {
  if (!list.length) return Promise.resolve(0);
  const args = [
    "--test",
    `--test-concurrency=${concurrency}`,
    // A test process ends when its tests have, even if a failed test left a server or child running; its exit
    // cleanups (tests/helpers/cleanup.ts) then stop them.
    "--test-force-exit",
    // Every test process, also one whose file imports no helper, gets its own CONTENT_DIR, DIST_DIR,
    // BUILD_CACHE_DIR and DATA_DIR and cleans up at exit.
    "--import=./tests/helpers/paths.ts",
    ...list,
  ];
  const child = spawn(process.execPath, args, { stdio: "inherit" });
  // Ctrl-C reaches the runner and its test processes alike; the runner just waits for them to clean up.
  const ignore = () => undefined;
  process.on("SIGINT", ignore);
  return new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      process.off("SIGINT", ignore);
      resolve(code ?? (signal ? 1 : 0));
    }),
  );
}

const args = process.argv.slice(2);
const part = (args.find((a) => (PARTS as readonly string[]).includes(a)) ?? "all") as Part;
const given = args.filter((a) => a.endsWith(".ts"));
const concurrencyArg = args.find((a) => a.startsWith("--concurrency="));
const concurrency = concurrencyArg ? Number(concurrencyArg.split("=")[1]) : Math.max(2, availableParallelism());
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`--concurrency must be a whole number of at least 1 (not ${concurrencyArg})`);
  process.exit(2);
}

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
let code = await runNodeTest(together, concurrency);
if (alone.length) code = (await runNodeTest(alone, 1)) || code;
console.log(`${part}: ${list.length} test files in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(code);
