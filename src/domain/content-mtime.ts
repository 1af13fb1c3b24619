// A file's modification time derived from its bytes, so that hosts which build validators from mtime and size
// (nginx: ETag "mtime-size" and Last-Modified) give a rebuild with unchanged bytes the same validators.
//
// The time is 2000-01-01T00:00:00Z plus the first 28 bits of the file's sha256 in seconds (a date between 2000
// and mid-2008): deterministic on every machine, never in the future, and equal for two different files of the
// same size only once in 2^28. It is a fingerprint, not a history: a new build may carry an earlier date, so
// nginx is configured with `if_modified_since exact` and clients should revalidate with the ETag.
const EPOCH_SECONDS = Date.UTC(2000, 0, 1) / 1000;
const HASH_HEX_DIGITS = 7; // 28 bits

/** `sha256` in hex; returns whole seconds (HTTP dates have no fractions). */
export function contentMtime(sha256: string): Date {
  const offset = Number.parseInt(sha256.slice(0, HASH_HEX_DIGITS), 16);
  if (!/^[0-9a-f]{64}$/i.test(sha256) || Number.isNaN(offset)) throw new Error(`not a sha256 in hex: ${sha256}`);
  return new Date((EPOCH_SECONDS + offset) * 1000);
}
