// Serves the files of the current build from memory: content types, strong ETags per encoding,
// Last-Modified, 304, HEAD, CORS and precompressed br/gzip variants.
import type { RequestHandler } from "express";
import { strongEtag } from "../../src/domain/hash.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { ServedFile } from "../build-store/snapshot.ts";
import { isNotModified } from "../http/conditional.ts";
import { acceptedEncodings } from "../http/encoding.ts";
import { methodNotAllowed } from "../http/errors.ts";
import { CACHE_DATA, CACHE_IMMUTABLE } from "../http/headers.ts";

function lookup(files: ReadonlyMap<string, ServedFile>, path: string): ServedFile | undefined {
  if (path === "/index.html") return files.get("/");
  return files.get(path) ?? (path.endsWith("/") ? undefined : files.get(`${path}.html`));
}

export function staticFiles(store: BuildStore): RequestHandler {
  const notAllowed = methodNotAllowed("GET, HEAD");
  return (req, res, next) => {
    const snapshot = store.current();
    const file = lookup(snapshot.files, req.path);
    if (!file) return next();
    if (req.method !== "GET" && req.method !== "HEAD") return notAllowed(req, res, next);

    const accepted = acceptedEncodings(req.headers["accept-encoding"]);
    const [encoding, variant] =
      file.br && accepted.has("br")
        ? (["br", file.br] as const)
        : file.gzip && accepted.has("gzip")
          ? (["gzip", file.gzip] as const)
          : (["identity", file.identity] as const);
    const etag = strongEtag(variant.sha256);
    const immutable = req.path.startsWith("/_astro/");
    res.setHeader("ETag", etag);
    if (snapshot.lastModified && !immutable) res.setHeader("Last-Modified", snapshot.lastModified);
    res.setHeader("Cache-Control", immutable ? CACHE_IMMUTABLE : CACHE_DATA);
    if (file.br || file.gzip) res.setHeader("Vary", "Accept-Encoding");
    if (isNotModified(req, etag, snapshot.lastModified)) {
      res.status(304).end();
      return;
    }
    res.setHeader("Content-Type", file.type);
    res.setHeader("X-Content-Type-Options", "nosniff");
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", variant.bytes.length);
    res.status(200).end(req.method === "HEAD" ? undefined : variant.bytes);
  };
}
