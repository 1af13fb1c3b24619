// Real nginx (Debian nginx-light + libnginx-mod-http-brotli-static) as a child process on a free loopback port,
// configured by the real `npm run nginx-config -- --standalone`.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { killOnExit } from "./cleanup.ts";
import { freePort } from "./free-port.ts";
import { ROOT, tempDir } from "./paths.ts";

const NGINX = "/usr/sbin/nginx";

export interface RunningNginx {
  url: string;
  config: string;
  /** nginx's prefix (-p): the configuration file is nginx.conf, the access log access.log. */
  prefix: string;
  stop(): Promise<void>;
}

/** Runs scripts/nginx-config.ts with `args`; resolves with its exit code, stdout and stderr. */
export async function nginxConfig(args: string[], env: Record<string, string> = {}) {
  return promisify(execFile)(process.execPath, [join(ROOT, "scripts/nginx-config.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

/** `upstream`: one sidecar's host:port, or several. */
export async function startNginx(opts: {
  root: string;
  upstream: string | string[];
  baseUrl: string;
}): Promise<RunningNginx> {
  const prefix = await tempDir("nginx");
  const port = await freePort();
  const upstreams = [opts.upstream].flat().flatMap((u) => ["--upstream", u]);
  const args = ["--standalone", "--root", opts.root, ...upstreams, "--listen", `127.0.0.1:${port}`];
  const generated = await nginxConfig(args, { BASE_URL: opts.baseUrl });
  if (generated.code !== 0) throw new Error(`nginx-config failed: ${generated.stderr}`);
  const conf = join(prefix, "nginx.conf");
  await writeFile(conf, generated.stdout);
  let stderr = "";
  const child: ChildProcess = spawn(
    NGINX,
    ["-p", prefix, "-c", conf, "-e", "stderr", "-g", `daemon off; pid ${join(prefix, "nginx.pid")};`],
    { stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  killOnExit(child);
  child.stderr?.on("data", (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  // A bound generous enough for a machine busy with other tests; the loop ends as soon as nginx answers.
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    const up = await fetch(`${url}/favicon.svg`, { method: "HEAD" }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer on ${url}: ${stderr}`);
    await sleep(50);
  }
  return {
    url,
    config: generated.stdout,
    prefix,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGQUIT");
      }),
  };
}
