// `npm run <script>` as an operator or a process manager starts it, for tests that signal npm itself.
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { ROOT, testBuildCache } from "./paths.ts";

export interface NpmProcess {
  npm: ChildProcess;
  /** The Node server npm started (from its first log line), not npm's own pid. */
  serverPid: number;
  url: string;
  port: number;
  logs: Record<string, unknown>[];
  /** Resolves once npm has exited (its code, or the signal that ended it). */
  exited: Promise<number | string>;
}

export function startNpm(script: string, env: Record<string, string>): Promise<NpmProcess> {
  const npm = spawn("npm", ["run", script], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_FORMAT: "json",
      BUILD_CACHE_DIR: testBuildCache(),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | string>((r) => npm.once("exit", (code, signal) => r(code ?? String(signal))));
  const logs: Record<string, unknown>[] = [];
  let output = "";
  npm.stderr?.on("data", (d) => (output += d));
  return new Promise((resolve, reject) => {
    let buffer = "";
    npm.stdout?.on("data", (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        output += `${line}\n`;
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.event === "server.listening") {
          const url = String(entry.url);
          resolve({ npm, serverPid: Number(entry.pid), url, port: Number(new URL(url).port), logs, exited });
        }
      }
    });
    void exited.then((code) => reject(new Error(`npm run ${script} exited (${code}) before listening:\n${output}`)));
  });
}

/** Whether a process with this pid still exists (signal 0 checks without signalling). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether something accepts connections on 127.0.0.1:port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Ends whatever is left of a test's npm run (the test failed half-way): npm and the server it started. */
export function cleanUp(p: NpmProcess | undefined): void {
  if (!p) return;
  for (const pid of [p.npm.pid, p.serverPid]) {
    if (pid && alive(pid)) process.kill(pid, "SIGKILL");
  }
}
