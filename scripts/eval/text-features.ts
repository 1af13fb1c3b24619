// Hashed sparse features of a review's own words for the text-model experiment (text-model.ts): lowercased
// word unigrams and bigrams, the words after a negator marked ("not good" gives "!good"), optionally character
// trigrams of the longer words (typos) and emoji as words. Each feature name is hashed (FNV-1a, 32 bits) into
// one of 2^bits buckets; a review's vector is the set of its buckets, each weighted 1/sqrt(count of buckets).

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

// A word (letters, digits, apostrophes inside), an emoji, or ! and ?.
const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*|\p{Extended_Pictographic}|[!?]/gu;
const BREAK = /[.,;:!?()\n]|\s[-—–]\s|\bbut\b|\bpero\b|\bhowever\b|\bthough\b/giu;
const NEGATORS = new Set([
  ...["not", "no", "never", "nothing", "nobody", "none", "neither", "nor", "without", "hardly", "barely"],
  ...["cannot", "nunca", "nada", "ni", "nope"],
]);

const isNegator = (w: string) => NEGATORS.has(w) || /n['’]?t$/.test(w);

/** The words of a text, lowercased, negation-marked within a clause (see the header). */
export function textTokens(text: string, negationScope: number): string[] {
  const out: string[] = [];
  for (const clause of text.toLowerCase().split(BREAK)) {
    let marked = 0;
    const start = out.length;
    for (const m of clause.matchAll(TOKEN)) {
      const w = m[0].replace(/’/g, "'");
      if (isNegator(w)) {
        out.push(w);
        marked = negationScope;
        continue;
      }
      out.push(marked > 0 ? `!${w}` : w);
      if (marked > 0) marked--;
    }
    if (out.length > start) out.push("|");
  }
  return out;
}

/** FNV-1a over the UTF-16 code units of `s`: the same bucket on every machine. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
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

/** The hashed, length-normalised vector of a text. */
export function textFeatures(parts: readonly string[], config: TextFeatureConfig): SparseVector {
  const mask = (1 << config.bits) - 1;
  const buckets = [...new Set(textFeatureNames(parts, config).map((n) => fnv1a(n) & mask))].sort((a, b) => a - b);
  const v = buckets.length ? 1 / Math.sqrt(buckets.length) : 0;
  return { index: Int32Array.from(buckets), value: new Float64Array(buckets.length).fill(v) };
}
