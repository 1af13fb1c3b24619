// Tokens keep their offsets into the original text, so quotes are always exact substrings.

export interface Token {
  /** Lowercased, NFKC-normalised, typographic apostrophes folded to ASCII. */
  norm: string;
  /** The token as written. */
  raw: string;
  start: number;
  end: number;
}

// A rating ("5/5", "4.5/5", "A+") and an amount of money ("$189", "€1,200") are one token each, before the
// words and numbers they are made of; "$$$" (dear) is one token too.
const TOKEN =
  /\p{Sc}(?:\p{N}+(?:[.,]\p{N}+)*|\p{Sc}+)|\p{N}+(?:\.\p{N}+)?\/\p{N}+|(?<![\p{L}\p{N}])[Aa]\++(?![\p{L}\p{N}])|[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*|\p{Extended_Pictographic}\uFE0F?/gu;

const ASCII = /^\p{ASCII}*$/u;

export function normalizeWord(s: string): string {
  // NFKC leaves ASCII as it is, and ’ is not ASCII: most words need only the lowercasing.
  if (ASCII.test(s)) return s.toLowerCase();
  return s.normalize("NFKC").toLowerCase().replace(/’/g, "'");
}

export function tokenize(text: string, offset = 0): Token[] {
  const out: Token[] = [];
  // An ASCII text needs only lowercasing, word by word (one test for the whole text).
  const ascii = ASCII.test(text);
  // exec from lastIndex 0, not matchAll (which copies the expression at every call); no match is empty.
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    const start = offset + m.index;
    out.push({ norm: ascii ? m[0].toLowerCase() : normalizeWord(m[0]), raw: m[0], start, end: start + m[0].length });
  }
  return out;
}

/** A multi-word phrase as a list of normalised tokens ("no-show" stays one token). */
export function phraseTokens(phrase: string): string[] {
  return tokenize(phrase).map((t) => t.norm);
}

interface PhraseEntry<V> {
  tokens: string[];
  /** The answer for a match, made once (callers only read it). */
  match: { readonly length: number; readonly value: V };
}

/** The phrases that start with one word: the one-word phrase, and the longer ones by their second word. */
class FirstWord<V> {
  single: PhraseEntry<V> | undefined = undefined;
  bySecond: Map<string, PhraseEntry<V>[]> | undefined = undefined;
}

/** The first word of each phrase: a cheap test before a phrase table is consulted. */
export const firstWords = (phrases: readonly string[]): string[] => phrases.map((p) => p.split(" ")[0]);

/**
 * Longest-match phrase table keyed by first token, then by second: a word that starts many phrases ("not",
 * "never") is compared only with those whose second word follows it.
 */
export class PhraseTable<V> {
  readonly #byFirst = new Map<string, FirstWord<V>>();

  /** A table of phrases with no value: does a listed phrase start here, and how long is it. */
  static of(phrases: readonly string[]): PhraseTable<true> {
    return new PhraseTable<true>(phrases.map((p) => [p, true]));
  }

  constructor(entries: Iterable<[string, V]>) {
    for (const [phrase, value] of entries) {
      const tokens = phraseTokens(phrase);
      if (tokens.length === 0) continue;
      const entry = { tokens, match: { length: tokens.length, value } };
      let first = this.#byFirst.get(tokens[0]);
      if (!first) {
        first = new FirstWord<V>();
        this.#byFirst.set(tokens[0], first);
      }
      if (tokens.length === 1) {
        first.single ??= entry;
        continue;
      }
      first.bySecond ??= new Map();
      const list = first.bySecond.get(tokens[1]) ?? [];
      list.push(entry);
      first.bySecond.set(tokens[1], list);
    }
    for (const first of this.#byFirst.values())
      for (const list of first.bySecond?.values() ?? []) list.sort((a, b) => b.tokens.length - a.tokens.length);
  }

  /** The longest phrase starting at tokens[i], or undefined. */
  match(tokens: readonly Token[], i: number): { readonly length: number; readonly value: V } | undefined {
    const first = this.#byFirst.get(tokens[i].norm);
    if (first === undefined) return undefined;
    if (first.bySecond !== undefined && i + 1 < tokens.length) {
      const list = first.bySecond.get(tokens[i + 1].norm);
      if (list !== undefined)
        for (let e = 0; e < list.length; e++) {
          const p = list[e].tokens;
          if (i + p.length > tokens.length) continue;
          let k = 2;
          while (k < p.length && tokens[i + k].norm === p[k]) k++;
          if (k === p.length) return list[e].match;
        }
    }
    return first.single?.match;
  }
}
