// A raw-socket client for HTTP edge cases (pipelining, odd request targets, bodies declared but not sent).
import { connect } from "node:net";

/** Sends raw bytes; resolves with what came back once the server closes or `quietMs` pass without data. */
export function rawExchange(port: number, bytes: string, opts: { read: boolean; quietMs?: number }) {
  return new Promise<{ closedByServer: boolean; received: string }>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ closedByServer, received });
    };
    const quiet = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(false), opts.quietMs ?? 1000);
    };
    socket.on("connect", () => {
      socket.write(bytes);
      if (opts.read) return quiet();
      // A client that stops reading for a while, then looks at what the server did meanwhile.
      socket.pause();
      setTimeout(() => {
        socket.resume();
        quiet();
      }, 1000);
    });
    socket.on("data", (d) => {
      received += d.toString("latin1");
      quiet();
    });
    socket.on("close", () => finish(true));
    socket.on("error", () => undefined);
  });
}
