// Limits per connection, enforced before any routing: a client that pipelines requests without reading the
// answers, or stops reading altogether, holds only a bounded amount of memory and is disconnected.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { KEEP_ALIVE_TIMEOUT_MS } from "../../src/domain/limits.ts";
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
  keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
} as const;

/** Unfinished responses of a connection, kept on its socket (per request: no map, no closure, one listener). */
const IN_FLIGHT = Symbol("inFlight");
type CountedSocket = Socket & { [IN_FLIGHT]?: number };

function onResponseClose(this: ServerResponse): void {
  const socket = this.req.socket as CountedSocket;
  socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 1) - 1;
}

/** Wraps the request listener with the in-flight limit and sets the idle timeout on the server. */
export function limitConnections(server: Server, listener: RequestListener, logger: Logger): RequestListener {
  server.timeout = SOCKET_IDLE_TIMEOUT_MS; // with no 'timeout' listener, Node destroys the idle socket
  return (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as CountedSocket;
    const n = (socket[IN_FLIGHT] ?? 0) + 1;
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
    socket[IN_FLIGHT] = n;
    res.on("close", onResponseClose);
    listener(req, res);
  };
}
