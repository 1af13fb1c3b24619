// Operations on ascending integer arrays (posting lists of review ranks).

export type Postings = Int32Array | readonly number[];

export function intersect(a: Postings, b: Postings): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      out.push(a[i]);
      i++;
      j++;
    }
  }
  return out;
}

export function union(lists: readonly Postings[]): number[] {
  const all: number[] = [];
  for (const l of lists) for (const x of l) all.push(x);
  all.sort((x, y) => x - y);
  return all.filter((x, i) => i === 0 || all[i - 1] !== x);
}

/** First index whose value is >= x. */
export function lowerBound(a: Postings, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The part of a sorted list within [lo, hi), as a view where it can be (no copy). */
export function clip(a: Postings, lo: number, hi: number): Postings {
  const from = lowerBound(a, lo);
  const to = lowerBound(a, hi);
  return a instanceof Int32Array ? a.subarray(from, to) : a.slice(from, to);
}

/** A set of ranks as one bit per review (the index stores frequent trigrams so). */
export interface Bitmap {
  readonly words: Int32Array;
  /** Ranks in the set. */
  readonly count: number;
}

const hasRank = (b: Bitmap, rank: number) => (b.words[rank >>> 5] & (1 << (rank & 31))) !== 0;

/** The ranks of `a` that are in every bitmap. */
export function filterByBitmaps(a: Postings, bitmaps: readonly Bitmap[]): Postings {
  if (bitmaps.length === 0) return a;
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (bitmaps.every((b) => hasRank(b, a[i]))) out.push(a[i]);
  return out;
}

/** The ranks within [lo, hi) in every bitmap (at least one), ascending. */
export function intersectBitmaps(bitmaps: readonly Bitmap[], lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let w = lo >>> 5; w * 32 < hi; w++) {
    let word = -1;
    for (const b of bitmaps) word &= b.words[w];
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      const rank = w * 32 + bit;
      if (rank >= lo && rank < hi) out.push(rank);
      word &= word - 1;
    }
  }
  return out;
}
