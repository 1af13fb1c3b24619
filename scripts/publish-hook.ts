// npm run publish-hook -- install [--branch NAME] [--force] [-- <npm run publish arguments>]
// npm run publish-hook -- uninstall
// Installs (or removes) the git hooks that publish each commit on a branch of the repository holding CONTENT_DIR,
// with the configuration of this environment (src/deploy/publish-hook.ts).
import { execFile } from "node:child_process";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { loadConfig } from "../src/config.ts";
import { HOOK_MARKER, HOOKS, renderHook } from "../src/deploy/publish-hook.ts";

const USAGE =
  "usage: npm run publish-hook -- install [--branch NAME] [--force] [-- <publish arguments>] | npm run publish-hook -- uninstall";
const SERVICE_DIR = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);

function fail(message: string, code = 1): never {
  console.error(`publish-hook: ${message}`);
  process.exit(code);
}

const [command, ...rest] = process.argv.slice(2);
const dashes = rest.indexOf("--");
const flags = dashes < 0 ? rest : rest.slice(0, dashes);
const publishArgs = dashes < 0 ? [] : rest.slice(dashes + 1);
if (command !== "install" && command !== "uninstall") fail(USAGE, 2);

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (e) {
  fail((e as Error).message, 2);
}
const git = async (...args: string[]) => {
  try {
    return (await run("git", ["-C", config.CONTENT_DIR, ...args])).stdout.trim();
  } catch (e) {
    const stderr = String((e as { stderr?: string }).stderr ?? (e as Error).message).trim();
    if (/not a git repository/i.test(stderr)) {
      fail(`CONTENT_DIR (${config.CONTENT_DIR}) is not in a git repository: run git init there first`);
    }
    fail(`git ${args.join(" ")} in ${config.CONTENT_DIR} failed: ${stderr}`);
  }
};
const top = await git("rev-parse", "--show-toplevel");
const hooksPath = await git("rev-parse", "--git-path", "hooks");
const hooksDir = isAbsolute(hooksPath) ? hooksPath : join(top, hooksPath);

const ours = async (file: string) =>
  (await readFile(file, "utf8").catch(() => undefined))?.includes(HOOK_MARKER) ?? undefined;

if (command === "uninstall") {
  for (const hook of HOOKS) {
    const file = join(hooksDir, hook);
    if (await ours(file)) {
      await rm(file);
      console.log(`removed ${file}`);
    }
  }
  process.exit(0);
}

const branchAt = flags.indexOf("--branch");
// symbolic-ref also names the branch of a repository without a commit yet.
const branch = branchAt >= 0 ? flags[branchAt + 1] : await git("symbolic-ref", "--short", "HEAD");
if (!branch || branch === "HEAD") fail("no branch to publish: pass --branch NAME");
for (const hook of HOOKS) {
  const file = join(hooksDir, hook);
  if ((await ours(file)) === false && !flags.includes("--force")) {
    fail(`${file} exists and is not this service's hook: merge it by hand, or pass --force to replace it`);
  }
}
const text = renderHook({ config, branch, serviceDir: SERVICE_DIR, node: process.execPath, publishArgs });
await mkdir(hooksDir, { recursive: true });
for (const hook of HOOKS) {
  const file = join(hooksDir, hook);
  await writeFile(file, text);
  await chmod(file, 0o755);
}
console.log(
  `installed ${HOOKS.map((h) => join(hooksDir, h)).join(" and ")}: each commit on ${branch} in ${top} runs npm run publish ${publishArgs.join(" ")}`,
);
