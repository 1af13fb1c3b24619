// Limits per connection, enforced before any routing: a client that pipelines requests without reading the
// answers, or stops reading altogether, holds only a bounded amount of memory and is disconnected.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "../logger.ts";

/** Requests of one connection whose responses are not finished yet; one more closes the connection. */
export const MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION = 16;
/** A connection with no bytes read or written for this long is closed (also one whose client stopped reading). */
export const SOCKET_IDLE_TIMEOUT_MS = 30_000;
/** How often Node checks the headers and request timeouts (its default, 30 s, makes them fire up to 30 s late). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;

/** Options for node:http's createServer that go with the limits above. */
export const serverTimeouts = {
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
} as const;

/** Wraps the request listener with the in-flight limit and sets the idle timeout on the server. */
export function limitConnections(server: Server, listener: RequestListener, logger: Logger): RequestListener {
  server.timeout = SOCKET_IDLE_TIMEOUT_MS; // with no 'timeout' listener, Node destroys the idle socket
  const inFlight = new WeakMap<Socket, number>();
  return (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const n = (inFlight.get(socket) ?? 0) + 1;
    if (n > MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION) {
      if (!socket.destroyed) {
        logger.warn(
          { event: "http.pipeline_limit", remote: socket.remoteAddress, limit: MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION },
          "closed a connection with too many unanswered requests",
        );
        socket.destroy();
      }
      return;
    }
    inFlight.set(socket, n);
    res.once("close", () => inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1));
    listener(req, res);
  };
}
