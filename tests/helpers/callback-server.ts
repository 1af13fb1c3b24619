// A real HTTPS WebSub subscriber on loopback, scripted per callback path.
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TestPki } from "./tls.ts";

export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  at: number;
}

/** How to answer a verification GET: echo the challenge, answer something else, or never answer. */
export type VerifyAnswer = "echo" | "wrong-body" | "silent" | { status: number };

export interface Behaviour {
  /** How to answer verification GETs; a list answers successive GETs, its last entry repeating. */
  verify?: VerifyAnswer | VerifyAnswer[];
  /** Status codes for successive deliveries; the last one repeats. */
  deliveries?: (number | "redirect")[];
  /** Delay before answering a delivery. */
  delayMs?: number;
}

export class CallbackServer {
  readonly received: Received[] = [];
  readonly behaviours = new Map<string, Behaviour>();
  #server!: Server;
  #deliveryCount = new Map<string, number>();
  port = 0;

  static async start(pki: TestPki, host = "127.0.0.1"): Promise<CallbackServer> {
    const s = new CallbackServer();
    s.#server = createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "https://x");
        const rec: Received = {
          method: req.method ?? "",
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks),
          at: Date.now(),
        };
        s.received.push(rec);
        const b = s.behaviours.get(url.pathname) ?? {};
        if (req.method === "GET") {
          const plan = [b.verify ?? "echo"].flat();
          const v = plan[Math.min(s.gets(url.pathname).length - 1, plan.length - 1)];
          if (v === "silent") return;
          if (v === "echo")
            res.writeHead(200, { "Content-Type": "text/plain" }).end(url.searchParams.get("hub.challenge") ?? "");
          else if (v === "wrong-body") res.writeHead(200).end("not the challenge");
          else res.writeHead(v.status).end(url.searchParams.get("hub.challenge") ?? "");
          return;
        }
        const n = s.#deliveryCount.get(url.pathname) ?? 0;
        s.#deliveryCount.set(url.pathname, n + 1);
        const plan = b.deliveries ?? [200];
        const answer = plan[Math.min(n, plan.length - 1)];
        const reply = () => {
          if (answer === "redirect") res.writeHead(302, { Location: `https://127.0.0.1:${s.port}/elsewhere` }).end();
          else res.writeHead(answer).end();
        };
        if (b.delayMs) setTimeout(reply, b.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => s.#server.listen(0, host, resolve));
    s.port = (s.#server.address() as AddressInfo).port;
    return s;
  }

  url(path: string, host = "127.0.0.1"): string {
    return `https://${host}:${this.port}${path}`;
  }

  gets(path: string): Received[] {
    return this.received.filter((r) => r.method === "GET" && r.path === path);
  }

  posts(path: string): Received[] {
    return this.received.filter((r) => r.method === "POST" && r.path === path);
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

// Also exported here: the hub and WebSub tests import them with their callback servers.
export { until, untilCount } from "./until.ts";
