// A TCP forwarder on a loopback port that a test can cut and restore: the database "goes away" for the processes
// connected through it (connections reset, new ones refused) without stopping the server other tests share.
import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  port: number;
  /** Refuses new connections and resets every open one. */
  cut(): Promise<void>;
  /** Accepts and forwards again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const make = () =>
    createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("close", () => sockets.delete(s));
        s.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
    });
  let server: Server | undefined = make();
  const port = await listen(server, 0);
  const stop = async () => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.resetAndDestroy();
    if (s) await new Promise((r) => s.close(r));
  };
  return {
    port,
    cut: stop,
    async restore() {
      server = make();
      await listen(server, port);
    },
    close: stop,
  };
}
