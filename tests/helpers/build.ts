// Runs the real build script (npm run build) as a child process against a content folder.
import { spawn } from "node:child_process";
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { SERVER_BUNDLE_DIR } from "../../src/build/write-manifest.ts";
import { killOnExit } from "./cleanup.ts";
import { ROOT, tempDir, testBuildCache } from "./paths.ts";
import { SAMPLE_CONTENT } from "./sample-content.ts";

export interface BuildRun {
  code: number;
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a script of the project (or of its node_modules) as a child process on the project's Node, to its end. */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<BuildRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, script), ...args], {
      cwd: ROOT,
      env: { ...process.env, BUILD_CACHE_DIR: testBuildCache(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    killOnExit(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    // "close", not "exit": the output is whole only once both pipes have ended.
    child.on("close", (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr }));
  });
}

export function runBuild(
  env: { CONTENT_DIR: string; DIST_DIR: string; BASE_URL?: string } & Record<string, string>,
): Promise<BuildRun> {
  return runScript("scripts/build.ts", [], { BASE_URL: "http://localhost:4321", ...env });
}

/** A copy of the sample content, optionally with extra or replaced files. */
export async function contentFixture(files: Record<string, unknown> = {}): Promise<string> {
  const dir = await tempDir("content");
  await cp(SAMPLE_CONTENT, dir, { recursive: true });
  for (const [path, value] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    const bytes = typeof value === "string" || value instanceof Uint8Array ? value : JSON.stringify(value, null, 2);
    await writeFile(join(dir, path), bytes);
  }
  return dir;
}

export const SAMPLE_BASE_URL = "http://localhost:4321";

/**
 * The sample content built into a fresh folder of this test process. For the usual BASE_URL that is a copy of the
 * build scripts/test.ts made once for the run (RPS_TEST_SAMPLE_DIST: the same seeded content and code, and the
 * build is reproducible); `fresh` (or running a file on its own) builds it here, for a test about the build itself.
 */
export async function buildSample(baseUrl = SAMPLE_BASE_URL, opts: { fresh?: boolean } = {}): Promise<string> {
  const dist = join(await tempDir("dist"), "dist");
  const shared = process.env.RPS_TEST_SAMPLE_DIST;
  if (shared && baseUrl === SAMPLE_BASE_URL && !opts.fresh) {
    await cp(shared, dist, { recursive: true, preserveTimestamps: true });
    return dist;
  }
  const run = await runBuild({ CONTENT_DIR: SAMPLE_CONTENT, DIST_DIR: dist, BASE_URL: baseUrl });
  if (run.code !== 0) throw new Error(`sample build failed:\n${run.stderr}`);
  return dist;
}

/**
 * Changes the text of the first verified review (in file-name order) of a content folder, in a way the analysis
 * sees (a complaint naming a person); returns the file's path inside `reviews/`.
 */
export async function changeOneReview(content: string): Promise<string> {
  const files = (await readdir(join(content, "reviews"), { recursive: true })).filter((f) => f.endsWith(".json"));
  for (const f of files.sort()) {
    const path = join(content, "reviews", f);
    const review = JSON.parse(await readFile(path, "utf8"));
    if (!review.verified) continue;
    review.text = `Martínez was late and rude; the repair failed twice. ${review.text}`;
    await writeFile(path, JSON.stringify(review, null, 2));
    return f;
  }
  throw new Error(`no verified review to change in ${content}`);
}

/** The files of a build by path, without the pages' server code (it embeds its build folder's path). */
export async function filesOf(dir: string): Promise<Map<string, Buffer>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, Buffer>();
  for (const e of entries.filter((x) => x.isFile()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(e.parentPath, e.name);
    // The pages' server code embeds its build folder's path, so it differs between any two builds; the
    // published files are what must be identical.
    if (relative(dir, path).startsWith(`${SERVER_BUNDLE_DIR}/`)) continue;
    files.set(relative(dir, path), await readFile(path));
  }
  return files;
}
