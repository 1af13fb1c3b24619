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

/**
 * Non-overlapping occurrences of `needle` in hay[start, end) (UTF-8 bytes of folded text, so a match is
 * always whole characters). A plain loop: fields are short, and a native indexOf per match costs more.
 */
export function countOccurrences(hay: Uint8Array, start: number, end: number, needle: Uint8Array): number {
  const m = needle.length;
  if (m === 0) return 0; // an empty needle would match at every position
  const first = needle[0];
  let n = 0;
  outer: for (let i = start, last = end - m; i <= last; i++) {
    if (hay[i] !== first) continue;
    for (let j = 1; j < m; j++) if (hay[i + j] !== needle[j]) continue outer;
    n++;
    i += m - 1;
  }
  return n;
}
