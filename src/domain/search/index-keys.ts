// Keys shared by the index writer and the search: trigrams of folded text and dates as day numbers.

/** Three UTF-16 code units as one number, so indexing allocates no strings. */
export function trigramKey(s: string, i: number): number {
  return s.charCodeAt(i) * 4294967296 + s.charCodeAt(i + 1) * 65536 + s.charCodeAt(i + 2);
}

/** Adds the trigram keys of `folded` to `into` (cleared by the caller). */
export function addTrigrams(folded: string, into: Set<number>): Set<number> {
  for (let i = 0; i + 3 <= folded.length; i++) into.add(trigramKey(folded, i));
  return into;
}

/** Days since 1970-01-01 of an ISO date (YYYY-MM-DD). */
export function dayNumber(isoDate: string): number {
  return Math.floor(Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`) / 86_400_000);
}
