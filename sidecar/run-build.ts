// The build as a child process of the server (npm start, npm run serve -- --watch): one at a time, its output
// kept out of the server's log stream (passed on when it fails), and ended with the server.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const BUILD_SCRIPT = fileURLToPath(new URL("../scripts/build.ts", import.meta.url));
/** The tail of a failed build's output kept for its error: the build prints the reason last. */
const KEPT_OUTPUT = 4000;

let running: ChildProcess | undefined;

/**
 * Runs scripts/build.ts with the server's environment; resolves with the build's last line (its summary), rejects
 * with the end of its output when it fails.
 */
export function runBuild(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILD_SCRIPT], { stdio: ["ignore", "pipe", "pipe"] });
    running = child;
    let output = "";
    const keep = (d: Buffer) => {
      output = (output + d.toString("utf8")).slice(-KEPT_OUTPUT);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      running = undefined;
      const lines = output.trim().split("\n");
      if (code === 0) return resolve(lines.at(-1) ?? "");
      const last = lines.slice(-6).join("\n");
      reject(new Error(`build failed (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ""}`));
    });
  });
}

/** Ends a build in progress (the server is exiting): the next build repairs what it leaves (output-folder.ts). */
export function stopBuild(): void {
  running?.kill("SIGTERM");
}
