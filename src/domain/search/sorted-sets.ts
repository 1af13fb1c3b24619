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
