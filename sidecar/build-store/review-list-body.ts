// JSON answers that end in a list of reviews, assembled from the exact bytes of reviews.json (no objects, no
// re-serialising): `{...envelope, "reviews": [<review bytes>, ...]}` with the envelope's keys first. Large ones
// are written in chunks (reviewListChunks), so an answer never needs its whole body in memory.
import type { Snapshot } from "./snapshot.ts";

type Reviews = Pick<Snapshot["index"], "reviewBytes" | "reviewLength">;

const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]}");
/** Bytes per chunk of a streamed list: large enough to keep system calls few, small enough to hold per reader. */
export const LIST_CHUNK_BYTES = 64 * 1024;

/** `{...envelope,"reviews":[` */
export function reviewListHead(envelope: object): Buffer {
  const json = JSON.stringify(envelope);
  return Buffer.from(`${json === "{}" ? "{" : `${json.slice(0, -1)},`}"reviews":[`);
}

/** The answer's length in bytes, from the reviews' lengths alone. */
export function reviewListLength(index: Reviews, head: Buffer, ranks: ArrayLike<number>): number {
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
