// 200 with one variant of a build's file as the body: from memory, or streamed from the held descriptor of a
// file served from disk (the page cache does the caching).
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendBytes } from "../http/headers.ts";
import type { FileVariant } from "./snapshot.ts";

export function sendVariant(req: IncomingMessage, res: ServerResponse, type: string, variant: FileVariant): void {
  if (!variant.file) {
    sendBytes(req, res, type, variant.read());
    return;
  }
  res.setHeader("Content-Type", type);
  res.setHeader("Content-Length", variant.size);
  res.statusCode = 200;
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  variant.file.sendTo(res);
}
