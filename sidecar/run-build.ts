// The build as a child process of the server (npm start, npm run serve -- --watch): one at a time, its output
// kept out of the server's log stream (passed on when it fails), and ended with the server.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const BUILD_SCRIPT = fileURLToPath(new URL("../scripts/build.ts", import.meta.url));
/** The tail of a failed build's output kept for its error: the build prints the reasons (every problem) last. */
const KEPT_OUTPUT = 8000;

let running: ChildProcess | undefined;

/**
 * Runs scripts/build.ts with the server's environment; resolves with the build's last line (its summary), rejects
 * with the end of its output when it fails.
 */
export function runBuild(opts: { echo?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILD_SCRIPT], { stdio: ["ignore", "pipe", "pipe"] });
    running = child;
    let output = "";
    const keep = (to: NodeJS.WriteStream) => (d: Buffer) => {
      // echo: the first build of npm start, before the server logs anything, is shown as it runs.
      if (opts.echo) to.write(d);
      output = (output + d.toString("utf8")).slice(-KEPT_OUTPUT);
    };
    child.stdout.on("data", keep(process.stdout));
    child.stderr.on("data", keep(process.stderr));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      running = undefined;
      const text = output.trim();
      if (code === 0) return resolve(text.split("\n").at(-1) ?? "");
      reject(new Error(`build failed (${signal ?? `exit code ${code}`})${text ? `: ${text}` : ""}`));
    });
  });
}

/** Ends a build in progress (the server is exiting): the next build repairs what it leaves (output-folder.ts). */
export function stopBuild(): void {
  running?.kill("SIGTERM");
}
