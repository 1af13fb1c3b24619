// Callback hosts for the hub benchmarks, each an HTTPS server in its own process (callback-host-child.ts) on its own
// loopback address (127.0.0.2, 127.0.0.3, …: distinct hosts to the hub, as a real hub sees many hosts, some of them
// aggregators). Subscriber i sits on host i mod the number of hosts. Not part of the service.
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestPki } from "../../tests/helpers/tls.ts";

const CHILD = fileURLToPath(new URL("./callback-host-child.ts", import.meta.url));

export interface CallbackStats {
  posts: number;
  distinct: number;
  lastAt: number;
}

/** The loopback addresses of `n` callback hosts: 127.0.0.2, 127.0.0.3, … */
export const loopbackHosts = (n: number) => Array.from({ length: n }, (_, i) => `127.0.0.${i + 2}`);

interface Host {
  child: ChildProcess;
  address: string;
  port: number;
}

function ask(h: Host, q: { stats?: boolean; reset?: boolean }): Promise<CallbackStats> {
  return new Promise((resolve, reject) => {
    const exited = () => reject(new Error(`callback host ${h.address} exited`));
    h.child.once("exit", exited);
    h.child.once("message", (m) => {
      h.child.off("exit", exited);
      resolve(m as CallbackStats);
    });
    h.child.send(q);
  });
}

export class CallbackHosts {
  #hosts: Host[] = [];

  /** One process per address; every POST is answered after `delayMs`. */
  static async start(pki: TestPki, addresses: string[], delayMs: number): Promise<CallbackHosts> {
    const s = new CallbackHosts();
    try {
      for (const address of addresses) {
        const child = fork(CHILD, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
        const host: Host = { child, address, port: 0 };
        s.#hosts.push(host);
        host.port = await new Promise<number>((resolve, reject) => {
          const exited = (code: number | null) => reject(new Error(`callback host ${address} exited (${code})`));
          child.once("exit", exited);
          child.once("message", (m) => {
            child.off("exit", exited);
            resolve((m as { port: number }).port);
          });
          child.send({ key: pki.key.toString(), cert: pki.cert.toString(), host: address, delayMs });
        });
      }
    } catch (e) {
      await s.close();
      throw e;
    }
    return s;
  }

  get size(): number {
    return this.#hosts.length;
  }

  /** The callback URL of subscriber `i`, on host i mod the number of hosts. */
  url(i: number, path = `/s/${i}`): string {
    const h = this.#hosts[i % this.#hosts.length];
    return `https://${h.address}:${h.port}${path}`;
  }

  /** POSTs received by all hosts (each path lives on one host, so distinct paths add up). */
  async stats(reset = false): Promise<CallbackStats> {
    const all = await Promise.all(this.#hosts.map((h) => ask(h, reset ? { reset } : { stats: true })));
    return {
      posts: all.reduce((a, s) => a + s.posts, 0),
      distinct: all.reduce((a, s) => a + s.distinct, 0),
      lastAt: Math.max(0, ...all.map((s) => s.lastAt)),
    };
  }

  async close(): Promise<void> {
    await Promise.all(
      this.#hosts.map(
        (h) =>
          new Promise<void>((resolve) => {
            if (h.child.exitCode !== null || h.child.signalCode !== null) return resolve();
            h.child.once("exit", () => resolve());
            h.child.kill("SIGKILL");
          }),
      ),
    );
    this.#hosts = [];
  }
}
