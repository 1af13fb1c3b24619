// Request limits of the public service, written once: the sidecar enforces them, the OpenAPI document and the
// README describe them.
export const MAX_URL_BYTES = 2048;
export const MAX_HEADER_BYTES = 16 * 1024;
export const MCP_MAX_BODY_BYTES = 64 * 1024;
/** An MCP tool result, resource read or prompt: at most this many bytes of JSON, sized for a context window. */
export const MCP_ANSWER_MAX_BYTES = 64 * 1024;
/**
 * Reviews' JSON in one page of an MCP tool's answer: the result carries it twice (the text block and
 * structuredContent), with room left for the envelope. A page holds fewer reviews than its limit when they are
 * long (next_cursor goes on from there), and always at least one.
 */
export const MCP_PAGE_REVIEW_BYTES = 28 * 1024;

/** "16 KiB", "2048 bytes": how a limit is written in descriptions. */
export function bytesText(n: number): string {
  return n % 1024 === 0 && n >= 1024 ? `${n / 1024} KiB` : `${n} bytes`;
}

/** The hub's form body (x-www-form-urlencoded): bytes and fields. */
export const HUB_FORM_MAX_BYTES = 16 * 1024;
export const HUB_FORM_MAX_FIELDS = 50;
/** `hub.callback`: characters. */
export const HUB_CALLBACK_MAX_LENGTH = 2000;
/** `hub.secret` must be shorter than this many bytes (UTF-8), as W3C WebSub requires. */
export const HUB_SECRET_LIMIT_BYTES = 200;

/**
 * The sidecar closes a kept-alive connection idle this long. A proxy in front must close its idle upstream
 * connections sooner (PROXY_KEEP_ALIVE_SECONDS): else it may send a request on a connection the sidecar is closing
 * at that moment, which fails and counts against a healthy instance.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** nginx's `keepalive_timeout` for its upstream connections to the sidecars (below KEEP_ALIVE_TIMEOUT_MS). */
export const PROXY_KEEP_ALIVE_SECONDS = 4;

/** A since answer at least this large is a heavy one: a client may have HEAVY_ANSWERS_PER_CLIENT in flight. */
export const HEAVY_ANSWER_BYTES = 1024 * 1024;
export const HEAVY_ANSWERS_PER_CLIENT = 4;
