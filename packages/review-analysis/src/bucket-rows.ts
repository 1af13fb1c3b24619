// Hashed-bucket → row look-up for the models that read a review's text buckets (review-model.ts, aspect-layer.ts):
// a bitmap with running counts (64 KB for 2^18 buckets) instead of a table of 2^bits rows, and weights kept as
// exact integers of ten-thousandths (the files round them to 4 decimals), 16 bits each when they fit, so that
// scoring a review is array look-ups in tables small enough to stay in cache.

export interface BucketRows {
  /** Bit b of word b >> 5: the model has a row for bucket b. */
  present: Int32Array;
  /** Rows of the buckets below word w's (the row of bucket b: before[b >> 5] + set bits below b in its word). */
  before: Int32Array;
}

/** The weights' unit: a weight w is stored as round(w × WEIGHT_UNIT). */
export const WEIGHT_UNIT = 1e4;

/** The count of set bits of a 32-bit integer. */
function bitCount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** The row index of sorted, distinct bucket ids below 2^bits; undefined when they are not. */
export function bucketRows(buckets: readonly unknown[], bits: number): BucketRows | undefined {
  const size = 2 ** bits;
  const present = new Int32Array(Math.ceil(size / 32));
  const before = new Int32Array(present.length);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    if (typeof b !== "number" || !Number.isInteger(b) || b < 0 || b >= size) return undefined;
    if (i > 0 && b <= (buckets[i - 1] as number)) return undefined;
    present[b >> 5] |= 1 << (b & 31);
  }
  for (let w = 1; w < present.length; w++) before[w] = before[w - 1] + bitCount(present[w - 1]);
  return { present, before };
}

/** The row of bucket b, or -1 when the model has none. */
export function rowOf(rows: BucketRows, b: number): number {
  const bits = rows.present[b >> 5];
  const bit = 1 << (b & 31);
  return (bits & bit) === 0 ? -1 : rows.before[b >> 5] + bitCount(bits & (bit - 1));
}

/** `length` finite numbers as a Float64Array, or undefined when `x` is not that (a model file's dense arrays). */
export function finiteNumbers(x: unknown, length: number): Float64Array | undefined {
  if (!Array.isArray(x) || x.length !== length || !x.every((v) => typeof v === "number" && Number.isFinite(v)))
    return undefined;
  return Float64Array.from(x);
}

/** Weights of 4 decimals as exact integers of ten-thousandths, in the smallest array that holds them. */
export function tenThousandths(weights: Float64Array): Int16Array | Int32Array | undefined {
  const ints = Int32Array.from(weights, (w) => Math.round(w * WEIGHT_UNIT));
  if (!ints.every((x, i) => x / WEIGHT_UNIT === weights[i])) return undefined;
  return ints.every((x) => x >= -0x8000 && x < 0x8000) ? Int16Array.from(ints) : ints;
}
