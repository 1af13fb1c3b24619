// Words for match=words: the index and the query cut text into words and fold each word the same way, so a query
// word finds a review word exactly when both fold to the same key.
import { foldText } from "./text-match.ts";

/**
 * Words too common to say anything about a review. They are not indexed, and a query's are left out (a query of
 * nothing else is refused). Negations ("no", "not") are kept: "no show" says something.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been but by did do does for from had has have he her him his i if in into is it its " +
    "me my of on or our she so than that the their them then there these they this those to too us was we were " +
    "what when where which who will with you your"
  ).split(" "),
);

// A word: letters and digits; apostrophes inside a word are dropped ("don't" is "dont"), any other character
// separates words ("no-show" is "no" and "show").
const APOSTROPHES = /['\u2019]/g;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

const isVowelAt = (w: string, i: number): boolean => {
  const c = w[i];
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return true;
  // y is a vowel after a consonant (tr-y), a consonant at the start or after a vowel (y-ard, pla-y).
  return c === "y" && i > 0 && !isVowelAt(w, i - 1);
};

/** Porter's measure m of w[0, end): the number of vowel-consonant sequences. */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && !isVowelAt(w, i)) i++;
  while (i < end) {
    while (i < end && isVowelAt(w, i)) i++;
    if (i >= end) break;
    m++;
    while (i < end && !isVowelAt(w, i)) i++;
  }
  return m;
}

const hasVowel = (w: string, end: number) => {
  for (let i = 0; i < end; i++) if (isVowelAt(w, i)) return true;
  return false;
};
const doubleConsonant = (w: string) =>
  w.length >= 2 && w[w.length - 1] === w[w.length - 2] && !isVowelAt(w, w.length - 1);
/** Ends consonant-vowel-consonant, the last not w, x or y (hop, not hoop or fix). */
const endsCvc = (w: string) => {
  const n = w.length;
  return n >= 3 && !isVowelAt(w, n - 1) && isVowelAt(w, n - 2) && !isVowelAt(w, n - 3) && !"wxy".includes(w[n - 1]);
};

/**
 * Simple English inflection removed from a folded word: Porter's steps 1a, 1b, 1c and 5 (plurals, -ed, -ing, a
 * final -e, y after a consonant as i), not his derivational steps (-ness, -ation, ...), so "heaters" and "heater",
 * "leaking", "leaked" and "leaks" and "leak", "servicing" and "services" meet, while "heating" and "heater" stay
 * apart. The result is a key, not always a word ("servic"). Only words of letters a-z longer than two are changed.
 */
export function stemWord(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  // 1a: plurals.
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.length > 4 ? w.slice(0, -2) : w.slice(0, -1);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w) && w.length > 3) w = w.slice(0, -1);
  // 1b: -eed, -ed, -ing.
  if (w.endsWith("eed")) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
  } else {
    const suffix = w.endsWith("ed") ? 2 : w.endsWith("ing") ? 3 : 0;
    if (suffix > 0 && hasVowel(w, w.length - suffix)) {
      w = w.slice(0, -suffix);
      if (/(at|bl|iz)$/.test(w)) w += "e";
      else if (doubleConsonant(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
      else if (measure(w, w.length) === 1 && endsCvc(w)) w += "e";
    }
  }
  // 1c: y after a consonant that is not the first letter (tried, tries and try meet).
  if (w.endsWith("y") && w.length > 2 && !isVowelAt(w, w.length - 2)) w = `${w.slice(0, -1)}i`;
  // 5a: a final -e (service and servic-ing meet; make keeps it, as does mak-ing through 1b).
  if (w.endsWith("e")) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w.slice(0, -1)))) w = w.slice(0, -1);
  }
  // 5b: a final double l after a long stem (controll-ed and control meet).
  if (w.endsWith("ll") && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}

/**
 * The words of `folded` (text already through foldText), in order, repeats and stop words kept: runs of
 * WORD_CHAR characters, found by char codes for ASCII (the build cuts every review; a regex iterator cost more than the rest of the postings).
 */
export function rawWordsOf(folded: string): string[] {
  const s = folded.includes("'") || folded.includes("\u2019") ? folded.replace(APOSTROPHES, "") : folded;
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    let width = 1;
    let inWord: boolean;
    if (c < 128) inWord = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
    else {
      const cp = s.codePointAt(i) as number;
      if (cp > 0xffff) width = 2;
      inWord = WORD_CHAR.test(String.fromCodePoint(cp));
    }
    if (inWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      words.push(s.slice(start, i));
      start = -1;
    }
    i += width;
  }
  if (start >= 0) words.push(s.slice(start));
  return words;
}

/** The key a folded word is indexed and searched by: "" for a stop word. */
export const keyOfWord = (raw: string): string => (STOP_WORDS.has(raw) ? "" : stemWord(raw));

/** The word keys of `folded` (text already through foldText), in order, repeats kept, stop words left out. */
export function wordKeysOfFolded(folded: string): string[] {
  return rawWordsOf(folded)
    .map(keyOfWord)
    .filter((k) => k !== "");
}

/**
 * The distinct word keys of a query, sorted: word order makes no difference, down to the last bit of a score
 * (empty: only stop words or no words).
 */
export function queryWordKeys(query: string): string[] {
  return [...new Set(wordKeysOfFolded(foldText(query)))].sort();
}
