// Lexicon sentiment over a clause's tokens: phrases before words, negation with a short scope that stops at
// opinion-unit boundaries, intensifiers and diminishers on the next sentiment word, and the rules for words
// whose valence depends on context (problem words, things a customer wanted, dirt left behind).

import { contextValence, contextWords, mayHaveContext, NEGATION_FACTOR } from "./context-rules.ts";
import { ratingValence, specialHit, specialStarts } from "./patterns.ts";
import {
  beliefVerbs,
  contrast,
  diminishers,
  failurePhrases,
  type Hit,
  intensifiers,
  ironyFirst,
  ironyMarkers,
  isNegator,
  lexicon,
  lukewarm,
  lukewarmFirst,
  makeHit,
  negatorPhrases,
  negators,
  phraseKey,
  phrases,
  spanish,
  words,
  wordValence,
} from "./sentiment-lexicon.ts";
import { phraseTokens, type Token } from "./tokenize.ts";
import type { Sentiment } from "./vocabulary.ts";

export {
  correctionOpeners,
  type Hit,
  isNegator,
  LEXICON_VERSION,
  makeHit,
  SPANISH_LEXICON_VERSION,
  sentimentTargets,
  sentimentVocabulary,
  words,
} from "./sentiment-lexicon.ts";
export { NEGATION_FACTOR };

// Every word at which clauseHits can do anything: a sentiment word, the start of a phrase or pattern, a
// negator or modifier, a word a context rule reads. Any other token (most of them) is passed over with one
// look-up ("n't" words and ratings with "/" are tested by their form).
const active = new Set<string>([
  ...words.keys(),
  ...[...Object.keys(lexicon.phrases), ...Object.keys(spanish.phrases), ...lexicon.negator_phrases].map(
    (p) => phraseTokens(p)[0],
  ),
  ...negators,
  ...intensifiers.keys(),
  ...diminishers.keys(),
  ...beliefVerbs,
  ...specialStarts,
  ...contextWords,
  ...lexicon.naming_verbs,
  "cannot",
]);
const NO_WORDS: ReadonlySet<string> = new Set();
const namingVerbs = new Set(lexicon.naming_verbs);
const namedObjects = new Set(lexicon.named_objects);
const adviceVerbs = new Set(lexicon.advice_verbs);
const agents = new Set(lexicon.agents);

/** "wouldn't call them professional", "I wouldn't describe it as good": the judgement named within reach. */
function namesJudgement(tokens: readonly Token[], i: number, unitEnd: number): boolean {
  if (!namedObjects.has(tokens[i + 1]?.norm ?? "")) return false;
  for (let k = i + 2; k <= Math.min(unitEnd, i + 4); k++) if ((words.get(tokens[k].norm) ?? 0) !== 0) return true;
  return false;
}

/** "The tech recommended replacing the anode rod": a worker's advice ("they suggested a new unit") is no praise. */
function givesAdvice(tokens: readonly Token[], i: number, unitStart: number): boolean {
  for (let k = i - 1; k >= Math.max(unitStart, i - 2); k--) if (agents.has(tokens[k].norm)) return true;
  return false;
}
const NEGATION_SCOPE = 3;
const ENOUGH = 0.5;
const MODIFIER_SCOPE = 2;

// Negation shifts an opinion toward and past neutral (Taboada et al. 2011, SO-CAL) rather than mirroring it:
// "not great" is lukewarm, "not good" is bad, "not terrible" is barely praise.
const NEGATION_SHIFT = 3.5;
const NEGATED_MIN = 0.5;
function negate(v: number): number {
  // Always flips the sign, never grows: |not X| is SHIFT - |X|, between NEGATED_MIN and |X|.
  const size = Math.max(NEGATED_MIN, Math.min(Math.abs(v), NEGATION_SHIFT - Math.abs(v)));
  return -Math.sign(v) * size;
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
    const word = tokens[i].norm;
    if (!active.has(word) && !word.endsWith("n't") && !word.includes("/") && wordValence(word) === undefined) {
      i++;
      continue;
    }
    const negatorPhrase = negatorPhrases.match(tokens, i);
    if (negatorPhrase) {
      // "Not once did they call back": the negation reaches past the inverted auxiliary.
      negatedUntil = Math.min(i + negatorPhrase.length + NEGATION_SCOPE + 1, unitEnd);
      i += negatorPhrase.length;
      continue;
    }
    // "wouldn't call them professional": a negated verb of naming negates the judgement it names.
    const naming = i <= negatedUntil && namingVerbs.has(word) ? i : isNegator(word) ? i + 1 : -1;
    if (
      naming >= 0 &&
      naming <= unitEnd &&
      namingVerbs.has(tokens[naming].norm) &&
      namesJudgement(tokens, naming, unitEnd)
    ) {
      negatedUntil = unitEnd;
      i = naming + 1;
      continue;
    }
    if (adviceVerbs.has(word) && givesAdvice(tokens, i, unitStart)) {
      i++;
      continue;
    }
    const special = specialHit(tokens, i, unitEnd, neutral);
    if (special) {
      hits.push(special.hit);
      negatedUntil = -1;
      modifierUntil = -1;
      i += special.length;
      continue;
    }
    const phrase = phrases.match(tokens, i);
    const norm = tokens[i].norm;
    const negated = i <= negatedUntil;
    // Context rules return a valence with negation already applied.
    const context =
      phrase || neutral.has(norm) || !mayHaveContext(tokens, i)
        ? undefined
        : contextValence(tokens, i, unitStart, unitEnd, negated);
    const value = phrase
      ? phrase.value
      : neutral.has(norm)
        ? 0
        : (context?.valence ?? wordValence(norm) ?? ratingValence(norm));
    const length = phrase ? phrase.length : 1;
    // "super fast": a word that is also an intensifier intensifies the sentiment word after it.
    const intensifying =
      !phrase && intensifiers.has(norm) && i + 1 <= unitEnd && words.has(tokens[i + 1].norm) && !neutral.has(norm);
    if (value !== undefined && value !== 0 && !intensifying) {
      let v = value;
      if (i <= modifierUntil) v *= modifier;
      // "nice enough guy": praise that is only enough is lukewarm.
      const enough = v > 0 && tokens[i + length]?.norm === "enough" && i + length <= unitEnd;
      if (enough) v *= ENOUGH;
      const hit = makeHit(i, length, v);
      if (negated && context === undefined) {
        hit.valence = negate(hit.valence);
        hit.negated = true;
      }
      // "not bad" is a negated opinion too, written as one phrase.
      if (phrase && isNegator(norm)) hit.negated = true;
      if (context?.failure) hit.failure = true;
      if (
        !negated &&
        (enough || (lukewarmFirst.has(norm) && lukewarm.has(phrase ? phraseKey(tokens, i, length) : norm)))
      )
        hit.lukewarm = true;
      if (phrase && ironyFirst.has(norm) && ironyMarkers.has(phraseKey(tokens, i, length))) hit.ironic = true;
      if (context?.aspect) hit.aspect = context.aspect;
      if (!negated && v < 0 && failurePhrases.has(phrase ? phraseKey(tokens, i, length) : norm)) hit.failure = true;
      hits.push(hit);
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

/** Clauses that open with "but", "however", "yet" (or Spanish "pero") outweigh the clause before them. */
export function opensContrast(tokens: readonly Token[]): boolean {
  const first = tokens[0]?.norm;
  return first === "but" || first === "however" || first === "yet" || first === "pero";
}

/** Weight of a clause by its opening word: concessive clauses ("although ...") weigh less. */
const CONTRAST_WEIGHT = 1.5;

export function clauseWeight(tokens: readonly Token[]): number {
  if (opensContrast(tokens)) return CONTRAST_WEIGHT;
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

/** A score above it is positive, below its negative negative, else neutral. */
export const LABEL_THRESHOLD = 0.1;

export function labelOf(score: number, threshold = LABEL_THRESHOLD): Sentiment {
  if (score > threshold) return "positive";
  if (score < -threshold) return "negative";
  return "neutral";
}

/** A raw clause sum's polarity (before normalisation). */
export function polarityOf(total: number): Sentiment {
  return labelOf(total, 0.4);
}
