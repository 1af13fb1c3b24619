// A real nginx (Debian nginx-light) as a child process, on loopback, with a config written to a temp dir.
import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { killOnExit } from "./cleanup.ts";
import { tempDir } from "./paths.ts";

export const NGINX = process.env.NGINX_BIN ?? "/usr/sbin/nginx";

export interface RunningNginx {
  url: string;
  child: ChildProcess;
  /** What nginx wrote to its error log so far (for a failing assertion's message). */
  errors(): string;
  stop(): Promise<void>;
}

export async function startNginx(config: string, port: number): Promise<RunningNginx> {
  const dir = await tempDir("nginx");
  const file = join(dir, "nginx.conf");
  await writeFile(file, config);
  let stderr = "";
  const child = spawn(NGINX, ["-p", dir, "-c", file, "-g", `daemon off; pid ${dir}/nginx.pid; error_log stderr;`], {
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  killOnExit(child);
  child.stderr?.on("data", (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    const up = await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer on ${url}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    child,
    errors: () => stderr,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGQUIT");
      }),
  };
}
