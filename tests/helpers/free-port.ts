// A loopback port for a test or benchmark server that must be told its port before it starts (nginx, a browser).
import { createServer } from "node:net";

/** A port that was free a moment ago (bind 0, read, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
