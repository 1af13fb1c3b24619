// The build caches' line files (content-snapshot.ndjson, the analysis cache): rewritten whole through a temporary
// file renamed into place, so that a reader never sees half a file, in chunks of about a megabyte.
import { open, rename } from "node:fs/promises";

const CHUNK = 1 << 20;

/** Writes `fingerprint` as the first line, then each of `lines` (each ending in "\n"), then `tail`; atomically. */
export async function rewriteLineFile(
  path: string,
  fingerprint: string,
  lines: Iterable<string>,
  tail: string,
): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  const handle = await open(tmp, "w");
  try {
    await handle.write(`${JSON.stringify({ fingerprint })}\n`);
    let chunk = "";
    for (const line of lines) {
      chunk += line;
      if (chunk.length > CHUNK) {
        await handle.write(chunk);
        chunk = "";
      }
    }
    await handle.write(chunk);
    await handle.write(tail);
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
}
