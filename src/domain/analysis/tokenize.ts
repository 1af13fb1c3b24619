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
  /\p{Sc}\p{N}+(?:[.,]\p{N}+)*|\p{Sc}{2,}|\p{N}+(?:\.\p{N}+)?\/\p{N}+|(?<![\p{L}\p{N}])[Aa]\++(?![\p{L}\p{N}])|[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*|\p{Extended_Pictographic}\uFE0F?/gu;

const ASCII = /^\p{ASCII}*$/u;

export function normalizeWord(s: string): string {
  // NFKC leaves ASCII as it is, and ’ is not ASCII: most words need only the lowercasing.
  if (ASCII.test(s)) return s.toLowerCase();
  return s.normalize("NFKC").toLowerCase().replace(/’/g, "'");
}

export function tokenize(text: string, offset = 0): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const start = offset + (m.index ?? 0);
    out.push({ norm: normalizeWord(m[0]), raw: m[0], start, end: start + m[0].length });
  }
  return out;
}

/** A multi-word phrase as a list of normalised tokens ("no-show" stays one token). */
export function phraseTokens(phrase: string): string[] {
  return tokenize(phrase).map((t) => t.norm);
}

/** Longest-match phrase table keyed by first token. */
export class PhraseTable<V> {
  readonly #byFirst = new Map<string, { tokens: string[]; value: V }[]>();

  constructor(entries: Iterable<[string, V]>) {
    for (const [phrase, value] of entries) {
      const tokens = phraseTokens(phrase);
      if (tokens.length === 0) continue;
      const list = this.#byFirst.get(tokens[0]) ?? [];
      list.push({ tokens, value });
      this.#byFirst.set(tokens[0], list);
    }
    for (const list of this.#byFirst.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  }

  /** The longest phrase starting at tokens[i], or undefined. */
  match(tokens: readonly Token[], i: number): { length: number; value: V } | undefined {
    const list = this.#byFirst.get(tokens[i].norm);
    if (!list) return undefined;
    for (const { tokens: p, value } of list) {
      if (i + p.length > tokens.length) continue;
      let ok = true;
      for (let k = 1; k < p.length; k++) {
        if (tokens[i + k].norm !== p[k]) {
          ok = false;
          break;
        }
      }
      if (ok) return { length: p.length, value };
    }
    return undefined;
  }
}
