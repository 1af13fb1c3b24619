// Serves the files of the current build (from memory, large ones from disk): content types, strong ETags per
// encoding, Last-Modified, 304, HEAD, CORS, WebSub Link headers on topics and precompressed br/gzip variants (the
// headers come from src/domain/static-headers.ts, which nginx and _headers share).
import type { Request, RequestHandler, Response } from "express";
import { strongEtag } from "../../src/domain/hash.ts";
import { acceptedEncodings, type Encoding } from "../../src/domain/http/encoding.ts";
import { IMMUTABLE_PREFIX, staticFileHeaders } from "../../src/domain/static-headers.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { FileVariant, ServedFile, Snapshot } from "../build-store/snapshot.ts";
import { answeredNotModified } from "../http/conditional.ts";
import { HttpError, methodNotAllowed } from "../http/errors.ts";
import { setBodyLength } from "../http/headers.ts";
import { setRouteLabel } from "../metrics.ts";

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

/** GET and HEAD of a file of the current build; other requests go on to the next handler. */
export function staticFiles(store: BuildStore): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const snapshot = store.current();
    const file = lookup(snapshot.files, req.path);
    if (!file) return next();
    setRouteLabel(req, "static");
    const [encoding, variant] = variantFor(file, acceptedEncodings(req.headers["accept-encoding"]));
    const { headers, cacheControl } = headersOf(snapshot, file);
    for (const [name, value] of headers) res.setHeader(name, value);
    const validators = validatorsOf(snapshot, file, variant, cacheControl);
    if (answeredNotModified(req, res, validators)) return;
    const range = requestedRange(req, variant.size, validators);
    if (range === "unsatisfiable")
      throw new HttpError(416, "range_not_satisfiable", `The file has ${variant.size} bytes.`, {
        "Content-Range": `bytes */${variant.size}`,
      });
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Accept-Ranges", "bytes");
    sendVariant(req, res, file.type, variant, range);
  };
}

/**
 * The one byte range a GET asks for (RFC 9110 section 14): undefined for the whole file (no Range, an If-Range
 * that names another version, a Range header that cannot be read, several ranges: a full 200 is a valid answer
 * to all of these).
 */
function requestedRange(
  req: Request,
  size: number,
  validators: { etag: string; lastModified: string | undefined },
): { start: number; end: number } | "unsatisfiable" | undefined {
  if (req.method !== "GET" || req.headers.range === undefined) return undefined;
  const ifRange = req.headers["if-range"];
  if (ifRange !== undefined && ifRange !== validators.etag && ifRange !== validators.lastModified) return undefined;
  const ranges = req.range(size, { combine: true });
  if (ranges === -1) return "unsatisfiable";
  if (ranges === -2 || ranges === undefined || ranges.type !== "bytes" || ranges.length !== 1) return undefined;
  return ranges[0];
}

/**
 * 200 with one variant of a file, or 206 with a range of it: from memory, or streamed from the held descriptor of
 * a file served from disk.
 */
function sendVariant(
  req: Request,
  res: Response,
  type: string,
  variant: FileVariant,
  range?: { start: number; end: number },
): void {
  const start = range?.start ?? 0;
  const end = range ? range.end + 1 : variant.size;
  res.setHeader("Content-Type", type);
  setBodyLength(req, res, end - start);
  res.statusCode = range ? 206 : 200;
  if (range) res.setHeader("Content-Range", `bytes ${start}-${end - 1}/${variant.size}`);
  if (req.method === "HEAD") res.end();
  else if (variant.file) variant.file.sendTo(res, start, end);
  else res.end(range ? variant.read().subarray(start, end) : variant.read());
}

/** Other methods on a file's path get 405 with Allow (inside Express, after CORS preflights). */
export function staticMethodGuard(store: BuildStore): RequestHandler {
  const notAllowed = methodNotAllowed("GET, HEAD");
  return (req, res, next) => (lookup(store.current().files, req.path) ? notAllowed(req, res, next) : next());
}
