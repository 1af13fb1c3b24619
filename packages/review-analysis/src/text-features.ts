// Hashed sparse features of a review's own words for the review-label model (review-model.ts): lowercased
// word unigrams and bigrams, the words after a negator marked ("not good" gives "!good"), optionally character
// trigrams of the longer words (typos) and emoji as words. Each feature name is hashed (FNV-1a, 32 bits) into
// one of 2^bits buckets; a review's vector is the set of its buckets, each weighted 1/sqrt(count of buckets).
// textFeatureNames spells the names out (the definition, for training and tests); textBuckets hashes the same
// names without building them (the engine's path): both give the same buckets. The lexicon's intensifiers are
// never words here (INTENSIFIERS).
import lexicon from "./lexicon/sentiment.json" with { type: "json" };

export interface TextFeatureConfig {
  /** log2 of the number of hash buckets. */
  bits: number;
  bigrams: boolean;
  /** Character trigrams of words of five letters or more. */
  chars: boolean;
  /** How many words after a negator are marked (0: no marking). */
  negationScope: number;
}

export interface SparseVector {
  index: Int32Array;
  value: Float64Array;
}

// One pass over the lowercased text: a clause break (punctuation, a spaced dash, "but", "pero", "however",
// "though": tried first at each place), or a word (letters, digits, apostrophes inside) or an emoji. The regular
// expression is the definition; scanItems below does the same by character classes (tested against it).
export const SCAN =
  /([.,;:!?()\n]|\s[-—–]\s|\bbut\b|\bpero\b|\bhowever\b|\bthough\b)|[\p{L}\p{N}]+(?:['’][\p{L}]+)*|\p{Extended_Pictographic}/giu;

const LETTER = 1;
const DIGIT = 2;
const PICTOGRAPH = 4;
const SPACE_CHAR = 8;
// Each code unit's classes, computed once from the regular expressions' classes (bit 7: computed).
const unitClasses = new Uint8Array(0x10000);
const astralClasses = new Map<number, number>();
function classesOf(cp: number): number {
  if (cp < 0x10000) {
    const known = unitClasses[cp];
    if (known) return known & 0x7f;
  } else {
    const known = astralClasses.get(cp);
    if (known !== undefined) return known;
  }
  const ch = String.fromCodePoint(cp);
  const k =
    (/\p{L}/u.test(ch) ? LETTER : 0) |
    (/\p{N}/u.test(ch) ? DIGIT : 0) |
    (/\p{Extended_Pictographic}/u.test(ch) ? PICTOGRAPH : 0) |
    (/\s/u.test(ch) ? SPACE_CHAR : 0);
  if (cp < 0x10000) unitClasses[cp] = k | 0x80;
  else astralClasses.set(cp, k);
  return k;
}
const BREAK_WORDS = ["but", "pero", "however", "though"];
// The roles of the code units the scanner tests at every place, one array read each: a break of its own, a dash,
// the first letter of a break word (most places start none: they are passed over without trying the words), an
// apostrophe inside a word.
const BREAK_UNIT = 1;
const DASH = 2;
const BREAK_WORD_FIRST = 4;
const APOSTROPHE = 8;
const unitRoles = new Uint8Array(0x10000);
for (const [units, role] of [
  [[...".,;:!?()\n"], BREAK_UNIT],
  [[..."-—–"], DASH],
  [BREAK_WORDS.map((w) => w[0]), BREAK_WORD_FIRST],
  [[..."'’"], APOSTROPHE],
] as const)
  for (const u of units) unitRoles[u.charCodeAt(0)] |= role;
/** A character of \w under the flags iu (ASCII letters, digits, "_", and "ſ", "K" by case folding). */
const isRegexWordUnit = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 0x17f || c === 0x212a;
const unitsOf = (cp: number) => (cp > 0xffff ? 2 : 1);

/** SCAN over a lowercased text, without the regular expression: `brk` at each break, `item` at each word or emoji. */
function scanItems(s: string, brk: () => void, item: (from: number, to: number) => void): void {
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (unitRoles[c] & BREAK_UNIT) {
      brk();
      i++;
      continue;
    }
    if (
      i + 2 < n &&
      unitRoles[s.charCodeAt(i + 1)] & DASH &&
      classesOf(c) & SPACE_CHAR &&
      classesOf(s.charCodeAt(i + 2)) & SPACE_CHAR
    ) {
      brk();
      i += 3;
      continue;
    }
    if (unitRoles[c] & BREAK_WORD_FIRST && (i === 0 || !isRegexWordUnit(s.charCodeAt(i - 1)))) {
      let w = "";
      for (const b of BREAK_WORDS)
        if (b.charCodeAt(0) === c && s.startsWith(b, i) && !isRegexWordUnit(s.charCodeAt(i + b.length))) {
          w = b;
          break;
        }
      if (w) {
        brk();
        i += w.length;
        continue;
      }
    }
    const cp = s.codePointAt(i) ?? c;
    const k = classesOf(cp);
    if (k & (LETTER | DIGIT)) {
      let j = i + unitsOf(cp);
      while (j < n) {
        const u = s.charCodeAt(j);
        // a-z and 0-9 (most of a lowercased text) without the look-up of classes.
        if ((u >= 97 && u <= 122) || (u >= 48 && u <= 57)) {
          j++;
          continue;
        }
        const q = s.codePointAt(j) ?? 0;
        if (!(classesOf(q) & (LETTER | DIGIT))) break;
        j += unitsOf(q);
      }
      // ['’] and letters, again and again.
      while (j + 1 < n && unitRoles[s.charCodeAt(j)] & APOSTROPHE && classesOf(s.codePointAt(j + 1) ?? 0) & LETTER) {
        j++;
        for (let q = s.codePointAt(j) ?? 0; j < n && classesOf(q) & LETTER; q = s.codePointAt(j) ?? 0) j += unitsOf(q);
      }
      item(i, j);
      i = j;
    } else if (k & PICTOGRAPH) {
      item(i, i + unitsOf(cp));
      i += unitsOf(cp);
    } else i += unitsOf(cp);
  }
}

const NEGATORS = new Set([
  ...["not", "no", "never", "nothing", "nobody", "none", "neither", "nor", "without", "hardly", "barely"],
  ...["cannot", "nunca", "nada", "ni", "nope"],
]);

const NONE: ReadonlySet<string> = new Set();
// The sentiment lexicon's intensifiers ("very", "super", "really"): absent from the words, always. They carry no
// polarity of their own (the rules' findings weigh them), and as words they are learned from the praise they
// usually precede, so that "very lazy" read as praise.
export const INTENSIFIERS: ReadonlySet<string> = new Set(Object.keys(lexicon.intensifiers));

// "not", "no", …, and any word ending in "n't" or "nt" ("didnt").
const isNegator = (w: string) => NEGATORS.has(w) || w.endsWith("nt") || w.endsWith("n't");

/**
 * Calls `word` with each word of a text, lowercased ("’" read as "'"), whether a negator before it in its clause
 * marks it (up to `negationScope` words) and where it starts, and `end` after each clause that had a word.
 */
function scanWords(
  text: string,
  negationScope: number,
  word: (w: string, marked: boolean, from: number) => void,
  end: () => void,
  skip: ReadonlySet<string> = NONE,
): void {
  let marked = 0;
  let words = false;
  const lower = text.toLowerCase();
  scanItems(
    lower,
    () => {
      if (words) end();
      words = false;
      marked = 0;
    },
    (from, to) => {
      const raw = lower.slice(from, to);
      const w = raw.includes("’") ? raw.replace(/’/g, "'") : raw;
      if (skip.has(w) || INTENSIFIERS.has(w)) return;
      words = true;
      if (isNegator(w)) {
        word(w, false, from);
        marked = negationScope;
      } else {
        word(w, marked > 0, from);
        if (marked > 0) marked--;
      }
    },
  );
  if (words) end();
}

/** The words of a text, negation-marked ("!good"), each clause followed by "|" (see the header). */
export function textTokens(text: string, negationScope: number): string[] {
  const out: string[] = [];
  scanWords(
    text,
    negationScope,
    (w, marked) => out.push(marked ? `!${w}` : w),
    () => out.push("|"),
  );
  return out;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

const fnvStep = (h: number, code: number) => Math.imul(h ^ code, FNV_PRIME);

/** FNV-1a state after `s`, continued from `h` (a signed 32-bit state; `>>> 0` gives the hash). */
function fnvFrom(h: number, s: string, from = 0, to = s.length): number {
  for (let i = from; i < to; i++) h = fnvStep(h, s.charCodeAt(i));
  return h;
}

/** FNV-1a over the UTF-16 code units of `s`: the same bucket on every machine. */
export function fnv1a(s: string): number {
  return fnvFrom(FNV_OFFSET, s) >>> 0;
}

/** The feature names of a text (before hashing), each once, in order of first appearance. */
export function textFeatureNames(parts: readonly string[], config: TextFeatureConfig): string[] {
  const names = new Set<string>();
  for (const part of parts) {
    const tokens = textTokens(part, config.negationScope);
    let prev = "^";
    for (const t of tokens) {
      if (t === "|") {
        prev = "|";
        continue;
      }
      names.add(`u:${t}`);
      if (config.bigrams) names.add(`b:${prev} ${t}`);
      if (config.chars && t.length >= 5) {
        const w = ` ${t.replace(/^!/, "")} `;
        for (let i = 0; i + 3 <= w.length; i++) names.add(`c:${w.slice(i, i + 3)}`);
      }
      prev = t;
    }
  }
  return [...names];
}

// The hash states after each feature name's prefix ("u:", "b:", "c:"), and after a bigram's "^" (first word).
const UNIGRAM = fnvFrom(FNV_OFFSET, "u:");
const UNIGRAM_MARKED = fnvFrom(FNV_OFFSET, "u:!");
const BIGRAM = fnvFrom(FNV_OFFSET, "b:");
const BIGRAM_MARKED = fnvFrom(FNV_OFFSET, "b:!");
const TRIGRAM = fnvFrom(FNV_OFFSET, "c:");
const SPACE = " ".charCodeAt(0);
const MARK = "!".charCodeAt(0);

// The buckets found in one text, reused from call to call (no allocation per review), and where each came from
// (the bucket, its part and the offset of its word), filled when a caller asks.
let scratch = new Int32Array(1024);
const placed = { count: 0, bucket: new Int32Array(1024), part: new Int32Array(1024), offset: new Int32Array(1024) };

/** Where each feature of the last textBuckets call asked `withPlaces` came from, in text order (views). */
export interface BucketPlaces {
  count: number;
  bucket: Int32Array;
  /** The index of the part, and the offset in it of the word the feature ends with. */
  part: Int32Array;
  offset: Int32Array;
}
export const lastBucketPlaces = (): BucketPlaces => placed;

/**
 * The buckets of a text's feature names (textFeatureNames, hashed and masked), sorted, each once: a view of a
 * buffer the next call overwrites (copy it to keep it). Words in `skip`
 * (the business's names: neutral words) are read as absent, so that no name sways the label. `withPlaces`: where
 * each feature came from is kept too (lastBucketPlaces), for a quote chosen by its words.
 */
export function textBuckets(
  parts: readonly string[],
  config: TextFeatureConfig,
  skip: ReadonlySet<string> = NONE,
  withPlaces = false,
): Int32Array {
  const mask = (1 << config.bits) - 1;
  let found = 0;
  let partIndex = 0;
  let wordAt = 0;
  const add = (h: number) => {
    if (found === scratch.length) {
      const grown = new Int32Array(scratch.length * 2);
      grown.set(scratch);
      scratch = grown;
    }
    if (withPlaces) {
      if (found === placed.bucket.length)
        for (const k of ["bucket", "part", "offset"] as const) {
          const grown = new Int32Array(placed[k].length * 2);
          grown.set(placed[k]);
          placed[k] = grown;
        }
      placed.bucket[found] = (h >>> 0) & mask;
      placed.part[found] = partIndex;
      placed.offset[found] = wordAt;
    }
    scratch[found++] = (h >>> 0) & mask;
  };
  for (const [p, part] of parts.entries()) {
    partIndex = p;
    // The state of "b:<previous word> ", ready for the next word.
    let bigram = fnvFrom(BIGRAM, "^ ");
    scanWords(
      part,
      config.negationScope,
      (w, marked, from) => {
        wordAt = from;
        // Each name hashed from its prefix's state on: "u:" + ("!") + w, "b:<previous> " + ("!") + w.
        // One pass over the word's characters for the three states that continue with it.
        let unigram = marked ? UNIGRAM_MARKED : UNIGRAM;
        let after = marked ? fnvStep(bigram, MARK) : bigram;
        let next = marked ? BIGRAM_MARKED : BIGRAM;
        for (let i = 0; i < w.length; i++) {
          const code = w.charCodeAt(i);
          unigram = fnvStep(unigram, code);
          after = fnvStep(after, code);
          next = fnvStep(next, code);
        }
        add(unigram);
        if (config.bigrams) {
          add(after);
          bigram = fnvStep(next, SPACE);
        }
        if (config.chars && w.length + (marked ? 1 : 0) >= 5) {
          const padded = ` ${w} `;
          for (let i = 0; i + 3 <= padded.length; i++) add(fnvFrom(TRIGRAM, padded, i, i + 3));
        }
      },
      () => {
        bigram = fnvFrom(BIGRAM, "| ");
      },
      skip,
    );
  }
  if (withPlaces) placed.count = found;
  const sorted = scratch.subarray(0, found).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i];
  return sorted.subarray(0, n);
}

/** The hashed, length-normalised vector of a text (words in `skip` absent, as textBuckets reads them). */
export function textFeatures(
  parts: readonly string[],
  config: TextFeatureConfig,
  skip: ReadonlySet<string> = NONE,
): SparseVector {
  const index = textBuckets(parts, config, skip).slice();
  const v = index.length ? 1 / Math.sqrt(index.length) : 0;
  return { index, value: new Float64Array(index.length).fill(v) };
}
