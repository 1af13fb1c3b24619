// A server for tests that compare a fast lane with the general path on the same requests: it tells whether an
// answer was written with one writeHead(status, flatHeaderArray), which only the fast lanes do (Express sets
// headers one by one).
import { Agent, createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Serves `handler` on an ephemeral loopback port; the agent keeps one connection alive, so the answers come in
 * order on one socket. `noteFlat(false)` at each request, `noteFlat(true)` when its answer is written flat.
 */
export async function listenNotingFlatHead(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  noteFlat: (flat: boolean) => void,
): Promise<{ server: Server; url: string; agent: Agent }> {
  const server = createServer((req, res) => {
    noteFlat(false);
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if (Array.isArray(args[1])) noteFlat(true);
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url, agent: new Agent({ keepAlive: true, maxSockets: 1 }) };
}

export interface RawAnswer {
  status: number;
  /** "Name: value" in the order sent, without Date (it differs between two answers a second apart). */
  headers: string[];
  body: Buffer;
}

/** One request on `agent`'s connection: status, headers in order and body bytes, for comparing two servers. */
export function rawExchange(
  url: string,
  agent: Agent,
  o: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: o.method, path: o.path, headers: o.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const raw: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          if (res.rawHeaders[i].toLowerCase() !== "date") raw.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode ?? 0, headers: raw, body: Buffer.concat(chunks) });
      });
    });
    req.on("error", reject);
    req.end(o.body);
  });
}
