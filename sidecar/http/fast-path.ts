// The fast path (README "Architecture"): repeats of the hottest GET/HEAD requests answered before Express, from
// answers prepared once per build, each written with one res.writeHead(status, flatHeaders). An answer is
// prepared only where the general path would give the same status, headers and bytes for the same URL; anything
// else (first sight of a URL, odd characters, other methods) falls through to the general path unchanged.
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_URL_BYTES } from "../../src/domain/limits.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { Snapshot } from "../build-store/snapshot.ts";
import type { Logger } from "../logger.ts";
import { setRouteLabel } from "../metrics.ts";
import { notModified } from "./conditional.ts";
import { type ClientAddress, logRequest } from "./cross-cutting.ts";

export interface PreparedAnswer {
  /** Headers of the 200, Content-Length included, in the order the general path sets them. */
  readonly ok: string[];
  /** Headers of the 304, for an answer with validators. */
  readonly notModified: string[] | undefined;
  readonly etag: string;
  /** Date.parse of its Last-Modified; NaN when it has none. */
  readonly lastModifiedMs: number;
  /** Body bytes (their length is in `ok`). */
  readonly length: number;
  body(): Buffer;
  /** For a large file served from disk: writes the body and ends the response (body() would read it whole). */
  readonly stream?: (res: ServerResponse) => void;
}

/**
 * An answer's headers in the general path's order: `headers` (sent on 200 and 304), then the validators
 * (ETag, Last-Modified, Cache-Control, as answeredNotModified sets them), then Content-Encoding, Content-Type and
 * Content-Length (200 only, as sendBytes sets them).
 */
export function prepareAnswer(a: {
  headers: [string, string][];
  validators?: { etag: string; lastModified: string | undefined; cacheControl: string };
  encoding?: string;
  type: string;
  length: number;
  body: () => Buffer;
  stream?: (res: ServerResponse) => void;
}): PreparedAnswer {
  const common = a.headers.flat();
  const v = a.validators;
  if (v) {
    common.push("ETag", v.etag);
    if (v.lastModified) common.push("Last-Modified", v.lastModified);
    common.push("Cache-Control", v.cacheControl);
  }
  const ok = [...common];
  if (a.encoding !== undefined) ok.push("Content-Encoding", a.encoding);
  ok.push("Content-Type", a.type, "Content-Length", String(a.length));
  return {
    ok,
    notModified: v ? common : undefined,
    etag: v?.etag ?? "",
    lastModifiedMs: v?.lastModified ? Date.parse(v.lastModified) : Number.NaN,
    length: a.length,
    body: a.body,
    stream: a.stream,
  };
}

/** Writes a prepared answer: 304 when its validators say the client's copy is current, else 200. */
function sendPrepared(req: IncomingMessage, res: ServerResponse, a: PreparedAnswer): void {
  if (a.notModified !== undefined && notModified(req.headers, a.etag, a.lastModifiedMs)) {
    res.writeHead(304, a.notModified);
    res.end();
    return;
  }
  res.writeHead(200, a.ok);
  if (req.method === "HEAD") res.end();
  else if (a.stream) a.stream(res);
  else res.end(a.body());
}

/** A route's prepared answers: the one for this URL of this build, or undefined (not seen yet, or evicted). */
export interface PreparedRoute {
  /** The metrics label of the route (what Express's route pattern gives on the general path). */
  label: string;
  /** Does the path (the URL before `?`) belong to this route? */
  owns(path: string): boolean;
  lookup(snapshot: Snapshot, url: string): PreparedAnswer | undefined;
}

/**
 * Characters for which Express's URL parser (parseurl) goes its slow way (a fragment, a non-ASCII byte), and so
 * may log another path than the URL's text before `?`: those requests take the general path.
 */
const ODD_URL = /[#\u0080-\uffff]/;

export function createFastPath(deps: {
  store: BuildStore;
  logger: Logger;
  clientAddress: ClientAddress;
  /** The static file at a path, prepared for this Accept-Encoding; undefined when no file is there. */
  staticAnswer(snapshot: Snapshot, path: string, acceptEncoding: string | undefined): PreparedAnswer | undefined;
  routes: PreparedRoute[];
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { store, logger, clientAddress, staticAnswer, routes } = deps;
  const logging = logger.isLevelEnabled("info");
  return (req, res) => {
    const method = req.method;
    const url = req.url;
    if ((method !== "GET" && method !== "HEAD") || url === undefined || url.length > MAX_URL_BYTES) return false;
    const started = logging ? process.hrtime.bigint() : 0n;
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    const snapshot = store.current();
    let answer = staticAnswer(snapshot, path, req.headers["accept-encoding"]);
    let label = "static";
    if (answer === undefined) {
      const route = routes.find((r) => r.owns(path));
      if (route === undefined || ODD_URL.test(url)) return false;
      answer = route.lookup(snapshot, url);
      if (answer === undefined) return false;
      label = route.label;
    }
    setRouteLabel(req, label);
    sendPrepared(req, res, answer);
    if (logging) logRequest(logger, req, path, res.statusCode, started, clientAddress(req));
    return true;
  };
}
