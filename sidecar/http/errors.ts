// Typed errors of the HTTP API and the one middleware that turns any error into a JSON response.
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Issue } from "../../src/domain/schemas/api.ts";
import type { Logger } from "../logger.ts";

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export class ValidationError extends HttpError {
  readonly issues: Issue[];
  constructor(issues: Issue[]) {
    super(400, "invalid_parameters", issues.map((i) => i.message).join("; "));
    this.issues = issues;
  }
}

export const notFound = (path: string) =>
  new HttpError(404, "not_found", `No resource at ${path}. The API is described at /.well-known/openapi.json.`);

export const methodNotAllowed =
  (allow: string): RequestHandler =>
  (req, _res, next) =>
    next(
      new HttpError(405, "method_not_allowed", `${req.method} is not allowed here; use ${allow}.`, { Allow: allow }),
    );

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const e = err as Partial<HttpError> & { status?: number; statusCode?: number; type?: string; expose?: boolean };
    const status = e instanceof HttpError ? e.status : (e.status ?? e.statusCode ?? 500);
    if (res.headersSent) {
      logger.error(
        { event: "http.error_after_headers", err: String(err), path: req.path },
        "error after headers were sent",
      );
      res.destroy();
      return;
    }
    for (const [k, v] of Object.entries(e.headers ?? {})) res.setHeader(k, v);
    res.setHeader("Access-Control-Allow-Origin", "*");
    if (err instanceof ValidationError) {
      res.status(400).json({ issues: err.issues });
      return;
    }
    // Express could not decode a path parameter (`/api/reviews/since/%`): a bad parameter, answered as one.
    if (err instanceof URIError && status === 400) {
      const message = `the path ${JSON.stringify(req.path)} holds a malformed percent-escape`;
      res.status(400).json({ issues: [{ path: ["(path)"], code: "invalid_encoding", message }] });
      return;
    }
    // A 5xx of our own (501) says what it means; any other error hides its details.
    if ((status >= 500 && !(e instanceof HttpError)) || status < 400) {
      logger.error(
        { event: "http.unhandled", method: req.method, path: req.path, err: (err as Error)?.stack ?? String(err) },
        "request failed",
      );
      res
        .status(500)
        .json({ error: "internal_error", message: "Something went wrong on our side. It has been logged." });
      return;
    }
    // Errors from Express and body parsers (bad URL encoding, body too large, ...) carry a safe 4xx message.
    const code = e instanceof HttpError ? (e.code as string) : (e.type ?? "bad_request").replace(/\./g, "_");
    res.status(status).json({ error: code, message: (err as Error).message });
  };
}
