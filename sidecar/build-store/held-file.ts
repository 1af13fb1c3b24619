// A build's large file served from disk rather than held in memory: opened once and verified once (its
// manifest sha256, read in slices), then read through the descriptor held since, so a later build renamed over
// DIST_DIR never changes what this build serves (the ETags keep matching the bytes); the OS page cache keeps
// the bytes, outside the process's RSS. The descriptor is closed when nothing refers to the HeldFile any more
// (a FinalizationRegistry: V8 decides when, usually at the next major GC after the build was switched out), so
// no request, stream or index of the old build can ever read a closed or reused descriptor.
import { close, fstat, open, read, readSync } from "node:fs";
import type { Writable } from "node:stream";
import { promisify } from "node:util";

const openFd = promisify(open);
const fstatFd = promisify(fstat);
const readFd = promisify(read);

const closer = new FinalizationRegistry<number>((fd) => close(fd, () => undefined));

/** Bytes per read while sending a held file to a client (nginx output_buffers 2 32k). */
const STREAM_CHUNK = 32 * 1024;
/** Chunks of one response written and not yet taken by the socket: a client that pipelines without reading holds little (bench: pipelining clients). */
const CHUNKS_IN_FLIGHT = 2;
/**
 * Chunk buffers kept for reuse (2 MiB); more in use at once are allocated and left to the GC. A fresh buffer per
 * chunk made each GET of a 75 MB reviews.json 2,300 buffers of garbage, which glibc's heap kept resident long after
 * V8 freed them (bench: the sidecar's RSS at steady state, 42 MB more after one such GET).
 */
const SPARE_CHUNKS_MAX = 64;
const spareChunks: Buffer[] = [];
const giveBack = (chunk: Buffer) => {
  if (spareChunks.length < SPARE_CHUNKS_MAX) spareChunks.push(chunk);
};

export class FileChangedError extends Error {}

export class HeldFile {
  private readonly fd: number;
  readonly path: string;
  readonly size: number;

  private constructor(fd: number, path: string, size: number) {
    this.fd = fd;
    this.path = path;
    this.size = size;
    closer.register(this, fd, this);
  }

  /** Closes now; only for a file nothing else has seen yet (one read whole into memory at load). */
  release(): void {
    closer.unregister(this);
    close(this.fd, () => undefined);
  }

  static async open(path: string): Promise<HeldFile> {
    const fd = await openFd(path, "r");
    try {
      return new HeldFile(fd, path, (await fstatFd(fd)).size);
    } catch (e) {
      close(fd, () => undefined);
      throw e;
    }
  }

  /** Bytes [start, end) into `into` at `at` (async, for loading). */
  async readInto(into: Buffer, at: number, length: number, position: number): Promise<number> {
    return (await readFd(this.fd, into, at, length, position)).bytesRead;
  }

  /** Bytes [start, end), read now (from the page cache once the file was read at load). */
  read(start = 0, end = this.size): Buffer {
    const out = Buffer.allocUnsafe(end - start);
    for (let at = 0; at < out.length; ) {
      const n = readSync(this.fd, out, at, out.length - at, start + at);
      if (n === 0) throw new FileChangedError(`${this.path} is shorter than when the build was loaded`);
      at += n;
    }
    return out;
  }

  /**
   * Writes the whole file to `out`, then ends it; a read error destroys `out` with it (the Content-Length already
   * sent tells the client the body was cut). At most CHUNKS_IN_FLIGHT chunks wait in `out` at a time, and a chunk's
   * buffer is reused once `out`'s write callback has run, so `out` must be done with a chunk's bytes by then, as a
   * socket or an http.ServerResponse is (a stream that keeps the chunks it is given is not).
   */
  sendTo(out: Writable): void {
    let at = 0;
    let inFlight = 0;
    let reading = false;
    let stopped = false;
    const stop = (err?: Error) => {
      stopped = true;
      if (err) out.destroy(err);
    };
    const pump = () => {
      if (stopped || reading) return;
      if (at >= this.size) {
        if (inFlight === 0) {
          stopped = true;
          out.end();
        }
        return;
      }
      if (inFlight >= CHUNKS_IN_FLIGHT) return;
      reading = true;
      const chunk = spareChunks.pop() ?? Buffer.allocUnsafeSlow(STREAM_CHUNK);
      read(this.fd, chunk, 0, Math.min(STREAM_CHUNK, this.size - at), at, (err, n) => {
        reading = false;
        if (err || n === 0 || out.destroyed) {
          giveBack(chunk);
          return stop(
            err ?? (n === 0 ? new FileChangedError(`${this.path} is shorter than when it was loaded`) : undefined),
          );
        }
        at += n;
        inFlight++;
        out.write(n === chunk.length ? chunk : chunk.subarray(0, n), (writeErr) => {
          inFlight--;
          // After a failed write the socket may not be done with the bytes: that buffer is left to the GC.
          if (writeErr) return stop();
          giveBack(chunk);
          pump();
        });
        pump();
      });
    };
    pump();
  }
}

/** Entries of FILE_BLOCK bytes kept by a BlockCachedFile (the newest reviews, at the start of reviews.json, stay). */
const FILE_BLOCK = 16 * 1024;

/**
 * A held file read like a Buffer (`length`, `subarray`), through a small least-recently-used cache of blocks:
 * a slice inside one cached block is a view of it (no copy, no system call); others are read from the file.
 */
export class BlockCachedFile {
  private readonly blocks = new Map<number, Buffer>();
  private readonly maxBlocks: number;
  private readonly file: HeldFile;
  readonly length: number;

  constructor(file: HeldFile, budgetBytes: number) {
    this.file = file;
    this.length = file.size;
    this.maxBlocks = Math.max(1, Math.floor(budgetBytes / FILE_BLOCK));
  }

  subarray(start: number, end: number): Buffer {
    const k = Math.floor(start / FILE_BLOCK);
    const base = k * FILE_BLOCK;
    if (end > base + FILE_BLOCK) return this.file.read(start, end);
    let block = this.blocks.get(k);
    if (block) {
      this.blocks.delete(k);
    } else {
      block = this.file.read(base, Math.min(base + FILE_BLOCK, this.length));
      if (this.blocks.size >= this.maxBlocks) this.blocks.delete(this.blocks.keys().next().value as number);
    }
    this.blocks.set(k, block);
    return block.subarray(start - base, end - base);
  }
}
