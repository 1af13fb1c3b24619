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

/** The union of ascending lists, ascending and without repeats (pairwise merges, no sort). */
export function union(lists: readonly Postings[]): Postings {
  let acc: Postings = lists[0] ?? [];
  for (let k = 1; k < lists.length; k++) {
    const a = acc;
    const b = lists[k];
    const out = new Int32Array(a.length + b.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < a.length || j < b.length) {
      let x: number;
      if (j >= b.length || (i < a.length && a[i] < b[j])) x = a[i++];
      else if (i < a.length && a[i] === b[j]) {
        x = a[i++];
        j++;
      } else x = b[j++];
      if (n === 0 || out[n - 1] !== x) out[n++] = x;
    }
    acc = out.subarray(0, n);
  }
  return acc;
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
