/** The form both the index and the query are compared in: NFKC, lowercase. */
export function foldText(s: string): string {
  return s.normalize("NFKC").toLowerCase();
}

export function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Relevance of a review to a folded query: title hits weigh three times a text hit. */
export function relevance(foldedTitle: string, foldedText: string, q: string): number {
  return 3 * countOccurrences(foldedTitle, q) + countOccurrences(foldedText, q);
}
