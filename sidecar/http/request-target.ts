// RFC 9112 §3.2.2: a server must accept the absolute form of a request target (`GET http://host/path`).
// Everything after this point (static files, Express) routes on the origin form, so it is rewritten once here.
import type { IncomingMessage } from "node:http";

export function toOriginForm(req: IncomingMessage): void {
  const url = req.url;
  if (!url || url.startsWith("/") || url === "*") return;
  if (!/^https?:\/\//i.test(url)) return;
  try {
    const parsed = new URL(url);
    req.url = `${parsed.pathname}${parsed.search}`;
  } catch {
    // Not a URL after all: left as it is, and answered 404 like any unknown path.
  }
}
