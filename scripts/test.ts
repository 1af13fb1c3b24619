// npm test and its parts: node scripts/test.ts [unit|system|slow|all] [--concurrency=N] [--list] [FILE…]
// Picks the test files of a part, checks that what the part needs is installed (saying how to install what is
// not), and runs them with node:test, several files at once: each test file runs in its own process with its
// own temporary folders, databases and ports (tests/helpers/paths.ts), so files share no state.
import "../src/require-node-version.ts";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { glob } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { writeSampleContent } from "./content-generator/sample.ts";
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

/**
 * Most system test files build the sample once; each would bundle the pages with Astro first (a few CPU-seconds)
 * because its BUILD_CACHE_DIR starts empty. One build here keeps a bundle that tests/helpers/paths.ts copies into
 * each test process's own cache, so a build of unchanged code is data-only there too, as on a developer's machine.
 */
async function seedAstroBundle(dir: string): Promise<string | undefined> {
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
    console.error(`(the sample did not build, so each test file bundles its own pages)\n${run.stderr}`);
    return undefined;
  }
  return join(dir, "cache", "astro-bundle");
}

function runNodeTest(list: string[], concurrency: number, env: NodeJS.ProcessEnv = process.env): Promise<number> {
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
  const child = spawn(process.execPath, args, { stdio: "inherit", env });
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
const seedDir = mkdtempSync(join(tmpdir(), "rps-seed-"));
let code = 1;
try {
  const systemFiles = list.filter((f) => f.startsWith("tests/") && !f.startsWith("tests/unit/")).length;
  const bundle = systemFiles >= 5 ? await seedAstroBundle(seedDir) : undefined;
  const env = bundle ? { ...process.env, RPS_TEST_ASTRO_BUNDLE: bundle } : process.env;
  code = await runNodeTest(together, concurrency, env);
  if (alone.length) code = (await runNodeTest(alone, 1, env)) || code;
} finally {
  rmSync(seedDir, { recursive: true, force: true });
}
console.log(`${part}: ${list.length} test files in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(code);
