// Serves the files of the current build from memory: content types, strong ETags per encoding, Last-Modified,
// 304, HEAD, CORS, WebSub Link headers on topics and precompressed br/gzip variants (the headers come from
// src/domain/static-headers.ts, which nginx and _headers share). It works on plain node:http objects so
// the server can answer static GETs before Express (most traffic, and the 304 path, skip the router).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { strongEtag } from "../../src/domain/hash.ts";
import { MAX_URL_BYTES } from "../../src/domain/limits.ts";
import { IMMUTABLE_PREFIX, staticFileHeaders } from "../../src/domain/static-headers.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { ServedFile, Snapshot } from "../build-store/snapshot.ts";
import { answeredNotModified } from "../http/conditional.ts";
import { logRequest } from "../http/cross-cutting.ts";
import { acceptedEncodings } from "../http/encoding.ts";
import { methodNotAllowed } from "../http/errors.ts";
import { sendBytes } from "../http/headers.ts";
import type { Logger } from "../logger.ts";

function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

function lookup(files: ReadonlyMap<string, ServedFile>, path: string): ServedFile | undefined {
  if (path === "/index.html") return files.get("/");
  return files.get(path) ?? (path.endsWith("/") ? undefined : files.get(`${path}.html`));
}

interface FileHeaders {
  /** Sent on 200 and 304 alike. */
  headers: [string, string][];
  /** Set with the validators (answeredNotModified). Content-Type is sent with the body only. */
  cacheControl: string;
}
const headerCache = new WeakMap<ServedFile, FileHeaders>();

/** The file's headers from the one module static hosts share. */
function headersOf(snapshot: Snapshot, file: ServedFile): FileHeaders {
  let cached = headerCache.get(file);
  if (!cached) {
    const {
      "Content-Type": _type,
      "Cache-Control": cacheControl,
      ...rest
    } = staticFileHeaders(snapshot.manifest.base_url, { ...file, precompressed: Boolean(file.br || file.gzip) });
    cached = { headers: Object.entries(rest), cacheControl };
    headerCache.set(file, cached);
  }
  return cached;
}

/** Answers GET and HEAD for a file of the current build; false when the request is not one (Express takes it). */
export function createStaticHandler(store: BuildStore, logger: Logger) {
  const logging = logger.isLevelEnabled("info");
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !req.url || req.url.length > MAX_URL_BYTES) return false;
    const snapshot = store.current();
    const path = pathOf(req.url);
    const file = lookup(snapshot.files, path);
    if (!file) return false;
    const started = logging ? process.hrtime.bigint() : 0n;

    const accepted = acceptedEncodings(req.headers["accept-encoding"]);
    const [encoding, variant] =
      file.br && accepted.has("br")
        ? (["br", file.br] as const)
        : file.gzip && accepted.has("gzip")
          ? (["gzip", file.gzip] as const)
          : (["identity", file.identity] as const);
    const { headers, cacheControl } = headersOf(snapshot, file);
    for (const [name, value] of headers) res.setHeader(name, value);
    const validators = {
      etag: strongEtag(variant.sha256),
      lastModified: file.urlPath.startsWith(IMMUTABLE_PREFIX) ? undefined : snapshot.lastModified,
      cacheControl,
    };
    if (!answeredNotModified(req, res, validators)) {
      if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
      sendBytes(req, res, file.type, variant.bytes);
    }
    if (logging) logRequest(logger, req, path, res.statusCode, started);
    return true;
  };
}

/** Other methods on a file's path get 405 with Allow (inside Express, after CORS preflights). */
export function staticMethodGuard(store: BuildStore): RequestHandler {
  const notAllowed = methodNotAllowed("GET, HEAD");
  return (req, res, next) => (lookup(store.current().files, req.path) ? notAllowed(req, res, next) : next());
}
