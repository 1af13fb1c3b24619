// The build caches' line files (content-snapshot.ndjson, the analysis cache): rewritten whole through a temporary
// file renamed into place, so that a reader never sees half a file, in chunks of about a megabyte. They can be
// read from the build's first moment on, while its code is still being loaded (readLineFilesEarly).
import { open, readFile, rename } from "node:fs/promises";
import { join } from "node:path";

/** The line files in BUILD_CACHE_DIR: the content snapshot (content-snapshot.ts) and the analysis cache. */
export const LINE_FILES = { snapshot: "content-snapshot.ndjson", analysis: "analysis.ndjson" } as const;

const early = new Map<string, Promise<Buffer>>();

/**
 * Starts reading the line files of `cacheDir` now, on libuv's thread pool. At 100,000 reviews they are 150 MB,
 * about 0.6 s of reading on a slow machine, which the build otherwise waits for when it gets to them; the build's
 * entry calls this before loading the build's code (about a second of this thread's time).
 */
export function readLineFilesEarly(cacheDir: string | undefined): void {
  if (cacheDir === undefined) return;
  for (const name of Object.values(LINE_FILES)) {
    const path = join(cacheDir, name);
    const bytes = readFile(path);
    bytes.catch(() => undefined); // a missing file is found again by readLineFile's caller
    early.set(path, bytes);
  }
}

/** The bytes of the line file at `path`: those read early, once, or read now. */
export function readLineFile(path: string): Promise<Buffer> {
  const bytes = early.get(path);
  early.delete(path);
  return bytes ?? readFile(path);
}

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
