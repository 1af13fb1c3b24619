// The JSON body of POST /mcp. The usual request (a Content-Length within the limit, no Content-Encoding or
// Transfer-Encoding, UTF-8) is read and parsed here in one step; any other goes to body-parser
// (express.json), which keeps its answers for those (inflating gzip, 415 for another charset, 413 while
// reading a chunked body). Both give an empty body as {} and drop a UTF-8 byte order mark, as body-parser does.
import express, { type RequestHandler } from "express";

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;

const parseFailed = (error: Error, body: string) =>
  Object.assign(error, { type: "entity.parse.failed", status: 400, statusCode: 400, expose: true, body });

export function jsonBody(limit: number): RequestHandler {
  const general = express.json({ limit, strict: false });
  return (req, res, next) => {
    const length = Number(req.headers["content-length"]);
    const type = req.headers["content-type"] ?? "";
    const charset = CHARSET.exec(type)?.[1]?.toLowerCase();
    if (
      !(length >= 0 && length <= limit) ||
      req.headers["content-encoding"] !== undefined ||
      req.headers["transfer-encoding"] !== undefined ||
      (charset !== undefined && charset !== "utf-8")
    )
      return general(req, res, next);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("error", next);
    req.once("end", () => {
      let text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString("utf8");
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.length === 0) {
        req.body = {};
        return next();
      }
      try {
        req.body = JSON.parse(text);
      } catch (e) {
        return next(parseFailed(e as Error, text));
      }
      next();
    });
  };
}
