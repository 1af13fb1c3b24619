// JSON answers that end in a list of reviews, assembled from the exact bytes of reviews.json (no objects, no
// re-serialising): `{...envelope, "reviews": [<review bytes>, ...]}` with the envelope's keys first. Large ones
// are streamed in chunks (writeReviewList), so an answer never needs its whole body in memory.
import type { Writable } from "node:stream";
import { FileChangedError } from "./held-file.ts";
import type { FileVariant, Snapshot } from "./snapshot.ts";

type ReviewRanges = Pick<Snapshot["index"], "reviewLength" | "reviewOffset">;

/** "," */
const COMMA = 0x2c;
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
export function reviewListLength(
  index: Pick<ReviewRanges, "reviewLength">,
  head: Buffer,
  ranks: ArrayLike<number>,
): number {
  let size = head.length + CLOSE.length + Math.max(0, ranks.length - 1);
  for (let i = 0; i < ranks.length; i++) size += index.reviewLength(ranks[i]);
  return size;
}

/**
 * Where one piece of a list ends: from `from`, reviews up to the first that brings the piece to `limit` bytes (at
 * least one review, so a head longer than a chunk is not sent again and again). The piece's size counts the head
 * before the first review of the list, a comma before every other review and the close after the last, as
 * layOut writes them; `lo`-`hi` is the span of reviews.json that holds its reviews.
 */
function pieceOf(index: ReviewRanges, head: Buffer, ranks: ArrayLike<number>, from: number, limit: number) {
  let size = from === 0 ? head.length : 0;
  let lo = Number.POSITIVE_INFINITY;
  let hi = 0;
  let to = from;
  for (; to < ranks.length && (to === from || size < limit); to++) {
    const start = index.reviewOffset(ranks[to]);
    const length = index.reviewLength(ranks[to]);
    lo = Math.min(lo, start);
    hi = Math.max(hi, start + length);
    size += length + (to > 0 ? 1 : 0);
  }
  if (to === ranks.length) size += CLOSE.length;
  return { to, size, lo, hi };
}

/**
 * Writes the list's punctuation for reviews `from`-`to` into `into` (the head before the first review of the
 * list, a comma before every other, the close after the last) and has `place` put each review's bytes at its
 * position; returns the length written. The one place the list's framing is written, whole or streamed.
 */
function layOut(
  into: Buffer,
  index: ReviewRanges,
  head: Buffer,
  ranks: ArrayLike<number>,
  from: number,
  to: number,
  place: (rank: number, at: number) => void,
): number {
  let at = from === 0 ? head.copy(into) : 0;
  for (let i = from; i < to; i++) {
    if (i > 0) into[at++] = COMMA;
    place(ranks[i], at);
    at += index.reviewLength(ranks[i]);
  }
  if (to === ranks.length) at += CLOSE.copy(into, at);
  return at;
}

/** The whole answer as one buffer: for answers bounded by a page size (search, MCP, since under 1 MiB). */
export function reviewListBody(snapshot: Pick<Snapshot, "index">, envelope: object, ranks: ArrayLike<number>): Buffer {
  const { index } = snapshot;
  const head = reviewListHead(envelope);
  const body = Buffer.allocUnsafe(reviewListLength(index, head, ranks));
  layOut(body, index, head, ranks, 0, ranks.length, (rank, at) => index.reviewBytes(rank).copy(body, at));
  return body;
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
    const { to, size, lo, hi } = pieceOf(index, this.head, ranks, from, this.chunkBytes);
    const out = size > into.length ? Buffer.allocUnsafeSlow(size) : into;
    const span = hi - lo;
    let length: number;
    if (to > from && span <= SPAN_PER_CHUNK * this.chunkBytes) {
      this.scratch ??= Buffer.allocUnsafeSlow(into.length);
      // A span longer than the buffer kept (reviews of one day sorted apart) is read into one of its own.
      const scratch = span <= this.scratch.length ? this.scratch : Buffer.allocUnsafeSlow(span);
      await this.readFully(scratch, 0, span, lo);
      length = layOut(out, index, this.head, ranks, from, to, (rank, at) => {
        const start = index.reviewOffset(rank) - lo;
        scratch.copy(out, at, start, start + index.reviewLength(rank));
      });
    } else {
      // Review by review, one read after another, each straight into its place.
      const places: [rank: number, at: number][] = [];
      length = layOut(out, index, this.head, ranks, from, to, (rank, at) => places.push([rank, at]));
      for (const [rank, at] of places)
        await this.readFully(out, at, index.reviewLength(rank), index.reviewOffset(rank));
    }
    this.next = to;
    return out.subarray(0, length);
  }

  private async readFully(into: Buffer, at: number, length: number, position: number): Promise<void> {
    for (let done = 0; done < length; ) {
      const n = await this.readAt(into, at + done, length - done, position + done);
      if (n === 0) throw new FileChangedError("reviews.json is shorter than when the build was loaded");
      done += n;
    }
  }
}
