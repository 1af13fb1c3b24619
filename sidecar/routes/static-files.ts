// Serves the files of the current build (from memory, large ones from disk): content types, strong ETags per encoding, Last-Modified,
// 304, HEAD, CORS, WebSub Link headers on topics and precompressed br/gzip variants (the headers come from
// src/domain/static-headers.ts, which nginx and _headers share). It works on plain node:http objects so
// the server can answer static GETs before Express (most traffic, and the 304 path, skip the router).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { strongEtag } from "../../src/domain/hash.ts";
import { MAX_URL_BYTES } from "../../src/domain/limits.ts";
import { IMMUTABLE_PREFIX, staticFileHeaders } from "../../src/domain/static-headers.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import { sendVariant } from "../build-store/send-variant.ts";
import type { FileVariant, ServedFile, Snapshot } from "../build-store/snapshot.ts";
import { answeredNotModified } from "../http/conditional.ts";
import { type ClientAddress, logRequest } from "../http/cross-cutting.ts";
import { acceptedEncodings, acceptedEncodingsMemo, type Encoding } from "../http/encoding.ts";
import { methodNotAllowed } from "../http/errors.ts";
import { type PreparedAnswer, prepareAnswer } from "../http/fast-path.ts";
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

/** The variant Accept-Encoding asks for: br, else gzip, else the identity bytes. */
function variantFor(file: ServedFile, accepted: ReadonlySet<Encoding>): [Encoding, FileVariant] {
  if (file.br && accepted.has("br")) return ["br", file.br];
  if (file.gzip && accepted.has("gzip")) return ["gzip", file.gzip];
  return ["identity", file.identity];
}

function validatorsOf(snapshot: Snapshot, file: ServedFile, variant: FileVariant, cacheControl: string) {
  return {
    etag: strongEtag(variant.sha256),
    lastModified: file.urlPath.startsWith(IMMUTABLE_PREFIX) ? undefined : snapshot.lastModified,
    cacheControl,
  };
}

/** Answers GET and HEAD for a file of the current build; false when the request is not one (Express takes it). */
export function createStaticHandler(store: BuildStore, logger: Logger, clientAddress: ClientAddress) {
  const logging = logger.isLevelEnabled("info");
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !req.url || req.url.length > MAX_URL_BYTES) return false;
    const snapshot = store.current();
    const path = pathOf(req.url);
    const file = lookup(snapshot.files, path);
    if (!file) return false;
    const started = logging ? process.hrtime.bigint() : 0n;

    const [encoding, variant] = variantFor(file, acceptedEncodings(req.headers["accept-encoding"]));
    const { headers, cacheControl } = headersOf(snapshot, file);
    for (const [name, value] of headers) res.setHeader(name, value);
    if (!answeredNotModified(req, res, validatorsOf(snapshot, file, variant, cacheControl))) {
      if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
      sendVariant(req, res, file.type, variant);
    }
    if (logging) logRequest(logger, req, path, res.statusCode, started, clientAddress(req));
    return true;
  };
}

/**
 * The fast path's static answers (http/fast-path.ts): the same status, headers and bytes as createStaticHandler,
 * prepared once per build, file and encoding.
 */
export function staticAnswers() {
  // A build's variants are its own objects, so the variant alone keys its answer (gone with its build).
  const prepared = new WeakMap<FileVariant, PreparedAnswer>();
  return (snapshot: Snapshot, path: string, acceptEncoding: string | undefined): PreparedAnswer | undefined => {
    const file = lookup(snapshot.files, path);
    if (!file) return undefined;
    const [encoding, variant] = variantFor(file, acceptedEncodingsMemo(acceptEncoding));
    let answer = prepared.get(variant);
    if (!answer) {
      const { headers, cacheControl } = headersOf(snapshot, file);
      const held = variant.file;
      answer = prepareAnswer({
        headers,
        validators: validatorsOf(snapshot, file, variant, cacheControl),
        encoding: encoding === "identity" ? undefined : encoding,
        type: file.type,
        length: variant.size,
        body: () => variant.read(),
        // A large file is streamed from its held descriptor, as the general path does (sendVariant).
        stream: held && ((res) => held.sendTo(res)),
      });
      prepared.set(variant, answer);
    }
    return answer;
  };
}

/** Other methods on a file's path get 405 with Allow (inside Express, after CORS preflights). */
export function staticMethodGuard(store: BuildStore): RequestHandler {
  const notAllowed = methodNotAllowed("GET, HEAD");
  return (req, res, next) => (lookup(store.current().files, req.path) ? notAllowed(req, res, next) : next());
}
