// Baseline for the HTTP benchmarks: a bare node:http server that answers every request with a
// precomputed body of a given size. Prints its URL.
import { createServer } from "node:http";

const size = Number(process.argv[2] ?? 1000);
const body = Buffer.alloc(size, "x");
const server = createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address() as { port: number };
  console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}` }));
});
