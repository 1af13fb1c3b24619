// How text is compared in search: the index and the query are folded the same way, then matched as substrings.

const COMBINING_MARKS = /\p{Mn}/gu;

/**
 * The form both the index and the query are compared in: NFKC (so "ﬁ" is "fi"), lowercase, and without
 * diacritics (decomposed, nonspacing marks removed, recomposed), so "Martínez" and "MARTINEZ" match.
 */
export function foldText(s: string): string {
  const lower = s.normalize("NFKC").toLowerCase();
  // ASCII has nothing to decompose: skip the two extra normalisations for the common case.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
  if (/^[\u0000-\u007f]*$/.test(lower)) return lower;
  return lower.normalize("NFD").replace(COMBINING_MARKS, "").normalize("NFC");
}

/** Non-overlapping occurrences of `needle` in `haystack` (both UTF-8 bytes of folded text). */
export function countOccurrences(haystack: Buffer, needle: Buffer): number {
  if (needle.length === 0) return 0; // an empty needle would match at every position, forever
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}
