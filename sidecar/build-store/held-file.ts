// A build's large file served from disk rather than held in memory: opened once and verified once (its
// manifest sha256, read in slices), then read through the descriptor held since, so a later build renamed over
// DIST_DIR never changes what this build serves (the ETags keep matching the bytes); the OS page cache keeps
// the bytes, outside the process's RSS. The descriptor is closed when nothing refers to the HeldFile any more
// (a FinalizationRegistry: V8 decides when, usually at the next major GC after the build was switched out), so
// no request, stream or index of the old build can ever read a closed or reused descriptor.
import { close, createReadStream, fstat, open, read, readSync } from "node:fs";
import { pipeline, type Writable } from "node:stream";
import { promisify } from "node:util";
import { releasableWhenIdle } from "../../src/domain/idle-release.ts";

const openFd = promisify(open);
const fstatFd = promisify(fstat);
const readFd = promisify(read);

const closer = new FinalizationRegistry<number>((fd) => close(fd, () => undefined));

/** The file system calls a held file's streams may make: reads, and a close that leaves the descriptor open. */
const KEEP_OPEN = { read, close: (_fd: number, done: (err: NodeJS.ErrnoException | null) => void) => done(null) };

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
   * Writes bytes [start, end) of the file to `out`, then ends it; a read error, or a file found shorter than it
   * was at load, destroys `out` (the Content-Length already sent tells the client the body was cut). The stream
   * reads by position through the held descriptor (never closing it) and waits for `out` to drain, so a slow
   * reader holds one chunk, not the file.
   */
  sendTo(out: Writable, start = 0, end = this.size): void {
    if (end <= start) {
      out.end();
      return;
    }
    // `fs.close` does nothing: a ReadStream closes its descriptor when destroyed (a client that leaves mid-body)
    // whatever autoClose says, and this descriptor belongs to the build, not to the response.
    const source = createReadStream("", { fd: this.fd, start, end: end - 1, autoClose: false, fs: KEEP_OPEN });
    // The listener keeps this HeldFile reachable while the stream runs, so its descriptor is not closed under it.
    source.once("end", () => {
      if (source.bytesRead < end - start)
        out.destroy(new FileChangedError(`${this.path} is shorter than when it was loaded`));
    });
    pipeline(source, out, () => undefined);
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
  /** performance.now() at the last read (src/domain/idle-release.ts). */
  lastUsed = 0;

  get holding(): boolean {
    return this.blocks.size > 0;
  }

  constructor(file: HeldFile, budgetBytes: number) {
    this.file = file;
    this.length = file.size;
    this.maxBlocks = Math.max(1, Math.floor(budgetBytes / FILE_BLOCK));
    releasableWhenIdle(this);
  }

  /** Forgets the cached blocks (an idle process gives their memory back: src/domain/idle-release.ts). */
  release(): void {
    this.blocks.clear();
  }

  subarray(start: number, end: number): Buffer {
    this.lastUsed = performance.now();
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
