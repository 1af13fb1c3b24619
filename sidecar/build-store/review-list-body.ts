// JSON answers that end in a list of reviews, assembled from the exact bytes of reviews.json (no objects, no
// re-serialising): `{...envelope, "reviews": [<review bytes>, ...]}` with the envelope's keys first. Large ones
// are streamed in chunks (writeReviewList), so an answer never needs its whole body in memory.
import type { Writable } from "node:stream";
import { FileChangedError } from "./held-file.ts";
import type { FileVariant, Snapshot } from "./snapshot.ts";

type Reviews = Pick<Snapshot["index"], "reviewBytes" | "reviewLength">;
type ReviewRanges = Pick<Snapshot["index"], "reviewLength" | "reviewOffset">;

const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]}");
/** Bytes per chunk of a streamed list: large enough to keep system calls few, small enough to hold per reader. */
export const LIST_CHUNK_BYTES = 64 * 1024;
/**
 * A chunk's reviews are read from reviews.json in one read when the bytes between the first and the last of them
 * are at most this many times the chunk (neighbours in the answer are neighbours in the file: reviews.json is
 * newest first, the answer oldest first), else review by review.
 */
const SPAN_PER_CHUNK = 4;

/** `{...envelope,"reviews":[` */
export function reviewListHead(envelope: object): Buffer {
  const json = JSON.stringify(envelope);
  return Buffer.from(`${json === "{}" ? "{" : `${json.slice(0, -1)},`}"reviews":[`);
}

/** The answer's length in bytes, from the reviews' lengths alone. */
export function reviewListLength(index: Pick<Reviews, "reviewLength">, head: Buffer, ranks: ArrayLike<number>): number {
  let size = head.length + CLOSE.length + Math.max(0, ranks.length - 1);
  for (let i = 0; i < ranks.length; i++) size += index.reviewLength(ranks[i]);
  return size;
}

/** The answer in chunks of about `chunkBytes`, each assembled when it is asked for. */
export function* reviewListChunks(
  index: Reviews,
  head: Buffer,
  ranks: ArrayLike<number>,
  chunkBytes = LIST_CHUNK_BYTES,
): Generator<Buffer> {
  let parts: Buffer[] = [head];
  let size = head.length;
  for (let i = 0; i < ranks.length; i++) {
    if (i > 0) parts.push(COMMA);
    const bytes = index.reviewBytes(ranks[i]);
    parts.push(bytes);
    size += bytes.length + (i > 0 ? 1 : 0);
    if (size >= chunkBytes) {
      yield Buffer.concat(parts, size);
      parts = [];
      size = 0;
    }
  }
  parts.push(CLOSE);
  yield Buffer.concat(parts, size + CLOSE.length);
}

/** The whole answer as one buffer: for answers bounded by a page size (search, MCP). */
export function reviewListBody(snapshot: Pick<Snapshot, "index">, envelope: object, ranks: ArrayLike<number>): Buffer {
  const head = reviewListHead(envelope);
  const parts = [...reviewListChunks(snapshot.index, head, ranks, Number.POSITIVE_INFINITY)];
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/** Reads bytes of reviews.json by position: `length` bytes at `position` into `into` at `at`. */
export type ReadAt = (into: Buffer, at: number, length: number, position: number) => Promise<number>;

/** How a list reads reviews.json: through the build's held descriptor (off the main thread), or from memory. */
export function readAtOf(reviewsJson: FileVariant): ReadAt {
  const { file } = reviewsJson;
  if (file) return (into, at, length, position) => file.readInto(into, at, length, position);
  const bytes = reviewsJson.read();
  return async (into, at, length, position) => bytes.copy(into, at, position, position + length);
}

/**
 * Writes the answer to `out` in chunks and ends it; a read error destroys `out` (the Content-Length already sent
 * tells the client the body was cut), and a client that goes away stops it. Each chunk is assembled in one of two
 * buffers, each used again once `out` has handed its bytes to the kernel (the other is filled meanwhile), and its
 * reviews are read from the file in one read of the span that holds them when it is compact: a reader holds three
 * chunks' worth whatever the answer's length, and a fast one makes no garbage per chunk.
 */
export function writeReviewList(
  out: Writable,
  index: ReviewRanges,
  head: Buffer,
  ranks: ArrayLike<number>,
  readAt: ReadAt,
  chunkBytes = LIST_CHUNK_BYTES,
): void {
  new ListWriter(out, index, head, ranks, readAt, chunkBytes).run().catch((e: Error) => out.destroy(e));
}

class ListWriter {
  private next = 0;
  private scratch: Buffer | undefined;
  /** The two chunk buffers, while not in `out`'s hands. */
  private readonly free: Buffer[];
  private wake: (() => void) | undefined;
  private readonly out: Writable;
  private readonly index: ReviewRanges;
  private readonly head: Buffer;
  private readonly ranks: ArrayLike<number>;
  private readonly readAt: ReadAt;
  private readonly chunkBytes: number;

  constructor(
    out: Writable,
    index: ReviewRanges,
    head: Buffer,
    ranks: ArrayLike<number>,
    readAt: ReadAt,
    chunkBytes: number,
  ) {
    this.out = out;
    this.index = index;
    this.head = head;
    this.ranks = ranks;
    this.readAt = readAt;
    this.chunkBytes = chunkBytes;
    // A chunk ends with the review that reaches chunkBytes: room for one past it (a longer chunk gets its own).
    const room = chunkBytes + (chunkBytes >> 2);
    this.free = [Buffer.allocUnsafeSlow(room), Buffer.allocUnsafeSlow(room)];
  }

  private readonly wakeUp = () => {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  };

  async run(): Promise<void> {
    const { out } = this;
    // A client that leaves may never see its write callbacks called.
    out.once("close", this.wakeUp);
    try {
      do {
        while (this.free.length === 0 && !out.destroyed)
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
        if (out.destroyed) return;
        const buffer = this.free.pop() as Buffer;
        const chunk = await this.fill(buffer);
        if (out.destroyed) return;
        out.write(chunk, () => {
          this.free.push(buffer);
          this.wakeUp();
        });
      } while (this.next < this.ranks.length);
      out.end();
    } finally {
      out.off("close", this.wakeUp);
      this.scratch = undefined;
    }
  }

  /** The next chunk: a view of `into`, or a buffer of its own when it is longer. */
  private async fill(into: Buffer): Promise<Buffer> {
    const { index, ranks } = this;
    const from = this.next;
    let size = from === 0 ? this.head.length : 0;
    let lo = Number.POSITIVE_INFINITY;
    let hi = 0;
    let to = from;
    // At least one review a chunk (a head longer than a chunk would otherwise be sent again and again).
    for (; to < ranks.length && (to === from || size < this.chunkBytes); to++) {
      const start = index.reviewOffset(ranks[to]);
      const length = index.reviewLength(ranks[to]);
      lo = Math.min(lo, start);
      hi = Math.max(hi, start + length);
      size += length + (to > 0 ? 1 : 0);
    }
    const last = to === ranks.length;
    if (last) size += CLOSE.length;
    const out = size > into.length ? Buffer.allocUnsafeSlow(size) : into;
    let at = from === 0 ? this.head.copy(out) : 0;
    const span = hi - lo;
    if (to > from && span <= SPAN_PER_CHUNK * this.chunkBytes) {
      this.scratch ??= Buffer.allocUnsafeSlow(into.length);
      // A span longer than the buffer kept (reviews of one day sorted apart) is read into one of its own.
      const scratch = span <= this.scratch.length ? this.scratch : Buffer.allocUnsafeSlow(span);
      await this.readFully(scratch, 0, span, lo);
      for (let i = from; i < to; i++) {
        if (i > 0) out[at++] = COMMA[0];
        const start = index.reviewOffset(ranks[i]) - lo;
        at += scratch.copy(out, at, start, start + index.reviewLength(ranks[i]));
      }
    } else {
      for (let i = from; i < to; i++) {
        if (i > 0) out[at++] = COMMA[0];
        const length = index.reviewLength(ranks[i]);
        await this.readFully(out, at, length, index.reviewOffset(ranks[i]));
        at += length;
      }
    }
    if (last) at += CLOSE.copy(out, at);
    this.next = to;
    return out.subarray(0, at);
  }

  private async readFully(into: Buffer, at: number, length: number, position: number): Promise<void> {
    for (let done = 0; done < length; ) {
      const n = await this.readAt(into, at + done, length - done, position + done);
      if (n === 0) throw new FileChangedError("reviews.json is shorter than when the build was loaded");
      done += n;
    }
  }
}
