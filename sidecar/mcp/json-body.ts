// The JSON body of POST /mcp. The usual request (a Content-Length within the limit, no Content-Encoding or
// Transfer-Encoding, UTF-8) is read and parsed here in one step; any other goes to body-parser
// (express.json), which keeps its answers for those (inflating gzip, 415 for another charset, 413 while
// reading a chunked body). Both give an empty body as {} and drop a UTF-8 byte order mark, as body-parser does.
// A body already read before Express (prepared-calls.ts, when it had no prepared answer) is parsed from that text.
import type { IncomingMessage } from "node:http";
import express, { type RequestHandler } from "express";

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;

const parseFailed = (error: Error, body: string) =>
  Object.assign(error, { type: "entity.parse.failed", status: 400, statusCode: 400, expose: true, body });

/** Whether the body is the usual one, read here in one step (else body-parser reads it). */
export function isPlainBody(req: IncomingMessage, limit: number): boolean {
  const length = Number(req.headers["content-length"]);
  const charset = CHARSET.exec(req.headers["content-type"] ?? "")?.[1]?.toLowerCase();
  return (
    length >= 0 &&
    length <= limit &&
    req.headers["content-encoding"] === undefined &&
    req.headers["transfer-encoding"] === undefined &&
    (charset === undefined || charset === "utf-8")
  );
}

const READ = Symbol("mcpBodyRead");
/** What readPlainBody read; `value`: the text already parsed (by prepared-calls.ts), so it is not parsed twice. */
type Read = IncomingMessage & { [READ]?: { text: string; value?: unknown } | { error: Error } };

/** Reads a plain body's text (the stream is consumed: what was read is kept on `req` for jsonBody). */
export function readPlainBody(req: IncomingMessage, done: (text: string | undefined) => void): void {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.once("error", (error) => {
    if (READ in req) return;
    (req as Read)[READ] = { error };
    done(undefined);
  });
  req.once("end", () => {
    if (READ in req) return;
    const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString("utf8");
    (req as Read)[READ] = { text };
    done(text);
  });
}

/**
 * Keeps `value`, what JSON.parse made of the text readPlainBody read (no byte order mark, not empty: what
 * jsonBody would make of it), as the request's body.
 */
export function keepParsedBody(req: IncomingMessage, value: unknown): void {
  const read = (req as Read)[READ];
  if (read && "text" in read) read.value = value;
}

export function jsonBody(limit: number): RequestHandler {
  const general = express.json({ limit, strict: false });
  const parse = (req: Read & { body?: unknown }, text: string, next: (err?: unknown) => void) => {
    let t = text;
    if (t.charCodeAt(0) === 0xfeff) t = t.slice(1);
    if (t.length === 0) {
      req.body = {};
      return next();
    }
    try {
      req.body = JSON.parse(t);
    } catch (e) {
      return next(parseFailed(e as Error, t));
    }
    next();
  };
  return (req, res, next) => {
    const read = (req as Read)[READ];
    if (read) {
      if ("error" in read) return next(read.error);
      if ("value" in read) {
        req.body = read.value;
        return next();
      }
      return parse(req, read.text, next);
    }
    if (!isPlainBody(req, limit)) return general(req, res, next);
    readPlainBody(req, (text) => {
      const r = (req as Read)[READ];
      if (text === undefined) return next(r && "error" in r ? r.error : undefined);
      parse(req, text, next);
    });
  };
}
