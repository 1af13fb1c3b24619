// The sidecar as a real process (npm run serve), for tests that restart or kill it.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { killOnExit } from "./cleanup.ts";
import { ROOT, testBuildCache } from "./paths.ts";

export interface SidecarProcess {
  url: string;
  child: ChildProcess;
  logs: Record<string, unknown>[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> })
  .scripts;

/**
 * Node's own flags and the environment (`env NAME=value ... node`) in the npm script that runs `entry`
 * (package.json says them once): the process runs as npm's.
 */
function npmScript(entry: string): { flags: string[]; env: Record<string, string> } {
  const words = (
    Object.values(SCRIPTS).find((s) => /^(exec )?(env (\w+=\S+ )+)?node /.test(s) && s.endsWith(` ${entry}`)) ?? ""
  ).split(" ");
  const node = words.indexOf("node");
  const env = words.slice(0, node).filter((w) => /^\w+=/.test(w));
  return {
    flags: words.slice(node + 1).filter((a) => a.startsWith("--")),
    env: Object.fromEntries(env.map((w) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)])),
  };
}

/**
 * `entry`: sidecar/server.ts (npm run serve) or sidecar/start.ts (npm start: build if needed, watch content);
 * `args` as given after `npm run serve --` (e.g. --watch).
 */
export function startSidecarProcess(
  env: Record<string, string>,
  entry = "sidecar/server.ts",
  args: string[] = [],
): Promise<SidecarProcess> {
  const script = npmScript(entry);
  const child = spawn(process.execPath, [...script.flags, join(ROOT, entry), ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...script.env,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "debug",
      BUILD_CACHE_DIR: testBuildCache(),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  killOnExit(child);
  const logs: Record<string, unknown>[] = [];
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr += d));
  let stopping = false;
  // A sidecar that ends on its own (a crash) says why in the test's output, whatever the test then asserts.
  child.once("exit", (code, signal) => {
    if (!stopping) process.stderr.write(`sidecar ${child.pid} exited unasked (${code ?? signal}):\n${stderr}\n`);
  });
  const stop = (signal: NodeJS.Signals = "SIGTERM") =>
    new Promise<number | null>((done) => {
      stopping = true;
      if (child.exitCode !== null) return done(child.exitCode);
      child.once("exit", (code) => done(code));
      child.kill(signal);
    });
  return new Promise((resolve, reject) => {
    // With a fixed port and a quiet log level (benchmarks), readiness is polled instead of read from the log.
    if (env.PORT && env.PORT !== "0") {
      const url = `http://127.0.0.1:${env.PORT}`;
      const poll = async () => {
        for (;;) {
          if (child.exitCode !== null) return;
          const ok = await fetch(`${url}/reviews.json`, { method: "HEAD" }).then(
            (r) => r.ok,
            () => false,
          );
          if (ok) return resolve({ url, child, logs, stop });
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      void poll();
    }
    let buffer = "";
    child.stdout?.on("data", (d: Buffer) => {
      buffer += d.toString();
      let nl = buffer.indexOf("\n");
      while (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf("\n");
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (entry.event === "server.listening") {
            resolve({ url: String(entry.url), child, logs, stop });
          }
        } catch {
          // not a log line
        }
      }
    });
    child.once("exit", (code) => reject(new Error(`sidecar exited with ${code}: ${stderr}`)));
  });
}

/** Puts a prebuilt dist/ in place the way the build does (the sidecar sees its manifest change). */
export async function deploy(builtDir: string, distDir: string): Promise<void> {
  const tmp = `${distDir}.tmp-deploy`;
  const old = `${distDir}.old-deploy`;
  await rm(tmp, { recursive: true, force: true });
  await cp(builtDir, tmp, { recursive: true });
  await rename(distDir, old).catch(() => undefined);
  await rename(tmp, distDir);
  await rm(old, { recursive: true, force: true });
}
