// One callback host for the hub benchmarks, in a process of its own (forked by callback-hosts.ts), so the bench's
// own work (polling, counting, the undici baseline) never starves its TLS handshakes: an HTTPS server on one
// loopback address that echoes verification challenges and answers POSTs with 200 after `delayMs`. It counts
// POSTs per path and, asked over IPC, reports {posts, distinct, lastAt}. Not part of the service.
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";

interface Start {
  key: string;
  cert: string;
  host: string;
  delayMs: number;
}

const seen = new Set<string>();
let posts = 0;
let lastAt = 0;

process.once("message", (m: Start) => {
  const server = createServer({ key: m.key, cert: m.cert }, (req, res) => {
    req.resume();
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "https://x");
      if (req.method === "GET") {
        res.writeHead(200, { "Content-Type": "text/plain" }).end(url.searchParams.get("hub.challenge") ?? "");
        return;
      }
      posts++;
      seen.add(url.pathname);
      lastAt = Date.now();
      if (m.delayMs) setTimeout(() => res.writeHead(200).end(), m.delayMs);
      else res.writeHead(200).end();
    });
  });
  server.listen(0, m.host, () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
    process.on("message", (q: { stats?: boolean; reset?: boolean }) => {
      if (q.reset) {
        seen.clear();
        posts = 0;
        lastAt = 0;
      }
      process.send?.({ posts, distinct: seen.size, lastAt });
    });
  });
  process.on("disconnect", () => process.exit(0));
});
