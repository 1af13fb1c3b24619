// Request limits of the public service, written once: the sidecar enforces them, the OpenAPI document and the
// README describe them.
export const MAX_URL_BYTES = 2048;
export const MAX_HEADER_BYTES = 16 * 1024;
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/** "16 KiB", "2048 bytes": how a limit is written in descriptions. */
export function bytesText(n: number): string {
  return n % 1024 === 0 && n >= 1024 ? `${n / 1024} KiB` : `${n} bytes`;
}
