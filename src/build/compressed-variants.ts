// The precompressed variants (br, gzip) of the build's files. A file whose bytes did not change since an earlier
// build gets its variants from BUILD_CACHE_DIR/compressed (keyed by the sha256 of the uncompressed bytes and the
// settings) instead of being compressed again; the variants are the same bytes either way, because brotli and
// gzip are deterministic for one zlib/brotli version and level (the folder is named after both versions).
// Entries are written under a temporary name and renamed, so a half-written one is never read; entries this
// build did not use are deleted at its end. Deleting the folder is always safe.
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const br = promisify(brotliCompress);
const gz = promisify(gzip);

const CACHE_SUBDIR = "compressed";

/**
 * Brotli 11 costs seconds per megabyte: the best ratio for small files, a fast level for the big datasets.
 * gzip 9 up to 8 MiB; above, level 6: at 100,000 reviews (reviews.json, 74 MB) 22% less CPU than level 9
 * (0.75 s against 0.96 s) for a 1% larger file (6.75 MB against 6.68 MB). Brotli 5 stays for the big file:
 * quality 4 would save 0.35 s per changed build but send 18% more bytes to every client that downloads it.
 */
export function compressionSettings(size: number): { brotli: number; gzip: number } {
  if (size <= 1 << 20) return { brotli: 11, gzip: 9 };
  if (size <= 8 << 20) return { brotli: 7, gzip: 9 };
  return { brotli: 5, gzip: 6 };
}

export interface Variants {
  br: Buffer;
  gzip: Buffer;
}

/**
 * Output space per round trip through this thread. zlib's thread pool hands each chunk of output back to this
 * thread before compressing on: with the default 16 KiB, reviews.json's 11 MB of variants took about 700 round
 * trips, and none of them ran while this thread was busy (the insights), so the compression that the build starts
 * early stood still until the manifest waited for it. The output bytes do not depend on the chunk size.
 */
const MAX_CHUNK = 4 << 20;

/** `level`: compressionSettings of the bytes' size. */
async function compress(bytes: Buffer, level: { brotli: number; gzip: number }): Promise<Variants> {
  const chunkSize = Math.max(constants.Z_DEFAULT_CHUNK, Math.min(bytes.length, MAX_CHUNK));
  // Both at once: zlib runs them on libuv's thread pool, one core each.
  const [brBytes, gzBytes] = await Promise.all([
    br(bytes, { chunkSize, params: { [constants.BROTLI_PARAM_QUALITY]: level.brotli } }),
    gz(bytes, { chunkSize, level: level.gzip }),
  ]);
  return { br: brBytes, gzip: gzBytes };
}

export class CompressedVariants {
  readonly #dir: string | undefined;
  readonly #memo = new Map<string, Promise<Variants>>();
  /** Cache file names this build read or wrote. */
  readonly #used = new Set<string>();
  /** Served from the cache / compressed now; for the build's timings. */
  hits = 0;
  misses = 0;

  /** `cacheDir`: BUILD_CACHE_DIR, or undefined for no cache. */
  constructor(cacheDir: string | undefined) {
    this.#dir =
      cacheDir === undefined
        ? undefined
        : join(cacheDir, CACHE_SUBDIR, `zlib-${process.versions.zlib}-brotli-${process.versions.brotli}`);
  }

  /** The variants of `bytes` (whose sha256 is `sha256`); asking twice for the same bytes compresses once. */
  of(bytes: Buffer, sha256: string): Promise<Variants> {
    let pending = this.#memo.get(sha256);
    if (!pending) {
      pending = this.#load(bytes, sha256);
      // Started early by the build (to overlap other work); a failure is reported to whoever awaits it.
      pending.catch(() => {});
      this.#memo.set(sha256, pending);
    }
    return pending;
  }

  async #load(bytes: Buffer, sha256: string): Promise<Variants> {
    const level = compressionSettings(bytes.length);
    const names = { br: `${sha256}.br${level.brotli}`, gzip: `${sha256}.gz${level.gzip}` };
    const dir = this.#dir;
    if (dir === undefined) return compress(bytes, level);
    this.#used.add(names.br).add(names.gzip);
    try {
      const [brBytes, gzBytes] = await Promise.all([readFile(join(dir, names.br)), readFile(join(dir, names.gzip))]);
      this.hits++;
      return { br: brBytes, gzip: gzBytes };
    } catch {
      // not cached yet (or deleted meanwhile): compress
    }
    this.misses++;
    const variants = await compress(bytes, level);
    try {
      await mkdir(dir, { recursive: true });
      for (const [name, data] of [
        [names.br, variants.br],
        [names.gzip, variants.gzip],
      ] as const) {
        const tmp = join(dir, `${name}.tmp-${process.pid}`);
        await writeFile(tmp, data);
        await rename(tmp, join(dir, name));
      }
    } catch {
      // A cache that cannot be written only costs the next build the compression.
    }
    return variants;
  }

  /** Deletes the entries this build did not use, and the folders of other zlib/brotli versions. */
  async prune(): Promise<void> {
    const dir = this.#dir;
    if (dir === undefined) return;
    const parent = dirname(dir);
    const own = basename(dir);
    for (const name of await readdir(parent).catch(() => [] as string[])) {
      if (name !== own) await rm(join(parent, name), { recursive: true, force: true });
    }
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!this.#used.has(name)) await rm(join(dir, name), { force: true });
    }
  }
}
