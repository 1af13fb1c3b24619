// The hub's only way out: HTTPS requests to callbacks, each connection made to an address that was resolved
// and checked by the SSRF guard (no second lookup to rebind), TLS always verified, no redirects followed,
// response bodies read only up to a cap.
import { lookup as dnsLookup } from "node:dns/promises";
import { type BlockList, isIP } from "node:net";
import { createSecureContext } from "node:tls";
import { Agent, buildConnector, request } from "undici";
import { isAllowedAddress } from "./address-guard.ts";
import { DELIVERY_CONCURRENCY } from "./hub-limits.ts";

export class RefusedCallbackError extends Error {}

export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The first address of `hostname` the guard admits, or a RefusedCallbackError. */
export async function resolveAllowed(hostname: string, allowlist: BlockList, lookup: Lookup = systemLookup) {
  const bare = hostname.replace(/^\[|\]$/g, "");
  const candidates = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare);
  const allowed = candidates.find((c) => isAllowedAddress(c.address, allowlist));
  if (!allowed) {
    throw new RefusedCallbackError(
      `${bare} resolves to no public address (${candidates.map((c) => c.address).join(", ") || "none"})`,
    );
  }
  return allowed;
}

export interface CallbackResponse {
  status: number;
  /** The first `maxBodyBytes` of the body, as text. */
  body: string;
}

export interface CallbackClient {
  get(url: URL, maxBodyBytes: number): Promise<CallbackResponse>;
  post(url: URL, body: Buffer, headers: Record<string, string>): Promise<CallbackResponse>;
  close(): Promise<void>;
}

export function createCallbackClient(opts: {
  allowlist: BlockList;
  timeoutMs: number;
  lookup?: Lookup;
  connectionsPerOrigin?: number;
}): CallbackClient {
  // One TLS context for every connection: building one per connection (the CA store included) is the largest piece
  // of CPU work when a fan-out opens its connections.
  const base = buildConnector({ timeout: opts.timeoutMs, secureContext: createSecureContext() });
  const agent = new Agent({
    // The claim pumps bound the requests per host (host-concurrency.ts), up to the global limit; a lower bound
    // here would queue inside undici and cap a host that earned more at this number.
    connections: opts.connectionsPerOrigin ?? DELIVERY_CONCURRENCY,
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    keepAliveTimeout: 4_000,
    // HTTP/1.1 only. With HTTP/2 allowed, undici opens one connection to a new origin and holds the host's other
    // requests until its ALPN answer; when that handshake times out it probes again with the next one, so against a
    // busy host the connections open one after another and one slow handshake becomes a chain of timeouts.
    allowH2: false,
    connect: (connectOpts, callback) => {
      const host = connectOpts.hostname;
      resolveAllowed(host, opts.allowlist, opts.lookup).then(
        ({ address }) => {
          const bare = host.replace(/^\[|\]$/g, "");
          base({ ...connectOpts, hostname: address, servername: isIP(bare) ? undefined : bare }, callback);
        },
        (err: Error) => callback(err, null),
      );
    },
  });

  async function send(
    method: "GET" | "POST",
    url: URL,
    body: Buffer | undefined,
    headers: Record<string, string>,
    maxBodyBytes: number,
  ) {
    if (url.protocol !== "https:") throw new RefusedCallbackError(`${url.protocol} callbacks are refused; only https`);
    const res = await request(url, {
      method,
      body,
      headers,
      dispatcher: agent,
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      chunks.push(buf.subarray(0, Math.max(0, maxBodyBytes - size)));
      size += buf.length;
      if (size >= maxBodyBytes) {
        res.body.destroy();
        break;
      }
    }
    return { status: res.statusCode, body: Buffer.concat(chunks).toString("utf8") };
  }

  return {
    get: (url, maxBodyBytes) => send("GET", url, undefined, {}, maxBodyBytes),
    post: (url, body, headers) => send("POST", url, body, headers, 1024),
    close: () => agent.close(),
  };
}
