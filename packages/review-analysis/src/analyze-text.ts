// Per-review analysis: sentiment score and label, the review label for the insights (`mixed` included), and
// aspects with their own polarity and an exact quote. Each part (title, text) is split into sentences,
// clauses (contrast weighting) and opinion units (negation scope, aspect binding). The rules run once; their
// findings and the review's words feed the review-label model (review-model.ts), which gives the labels and the
// score, and the aspect layer (aspect-layer.ts), which gives the aspects from the rules' and the same inputs.

import {
  type AspectLayer,
  type AspectMention,
  aspectLayer,
  LAYER_PROBABILITIES,
  layerAspects,
} from "./aspect-layer.ts";
import { bindCues, type Cue, cueTargets, cueVocabulary, findCues } from "./aspects.ts";
import { type Abstention, chipFeatures, type ReviewCues, reviewCues } from "./chip-features.ts";
import { type ChipVerifier, chipVerifier, contradictionProbability } from "./chip-verifier.ts";
import { labelFeatures } from "./label-features.ts";
import stopwordList from "./lexicon/stopwords.json" with { type: "json" };
import { listLabels } from "./list-labels.ts";
import {
  COMBINER_FEATURES,
  type ReviewLabel,
  type ReviewModel,
  reviewModel,
  verdictOfBuckets,
} from "./review-model.ts";
import { changedState, dropExpected, dropSituation, dropThanked, rescopeHits } from "./scope-rules.ts";
import { clauses, type Span, sentences } from "./segment.ts";
import {
  clauseHits,
  correctionOpeners,
  type Hit,
  isNegator,
  makeHit,
  NEGATION_FACTOR,
  sentimentTargets,
  sentimentVocabulary,
} from "./sentiment.ts";
import { questionOpeners } from "./sentiment-lexicon.ts";
import { statedFigureHits } from "./stated-figures.ts";
import { lastBucketPlaces, textBuckets } from "./text-features.ts";
import { type Token, tokenize } from "./tokenize.ts";
import { englishWords, TypoCorrector } from "./typos.ts";
import { addClauseMasses, noMasses, verdict } from "./verdict.ts";
import { ASPECTS, type Sentiment } from "./vocabulary.ts";

export type { AspectMention } from "./aspect-layer.ts";
export { aspectCues } from "./aspects.ts";
export type { ReviewLabel } from "./review-model.ts";

export interface TextAnalysis {
  sentiment: { score: number; label: Sentiment };
  /** The review's label for the insights: `mixed` when it clearly praises and criticises with no verdict. */
  overall: ReviewLabel;
  aspects: AspectMention[];
}

const typos = new TypoCorrector(
  [...sentimentTargets, ...cueTargets],
  [...sentimentVocabulary, ...cueVocabulary, ...stopwordList.words, ...englishWords],
);
// Words and punctuation that end an opinion unit: "fast and clean", "Rude receptionist, great technician".
const UNIT_WORDS = new Set([
  ...["and", "but", "though", "although", "however", "yet", "while", "whereas", "plus", "so"],
  ...["y", "pero"],
]);
const UNIT_PUNCTUATION = /[,;:()—–]|\s-{1,2}\s/;

// The characters without which UNIT_PUNCTUATION cannot match (its punctuation, and the hyphen of a spaced dash).
const UNIT_PUNCTUATION_CHARS = new Set([..."-,;:()—–"].map((c) => c.charCodeAt(0)));

/** Unit punctuation between two tokens (one space, the usual gap, is none). */
function punctuationBetween(part: string, from: number, to: number): boolean {
  if (to === from || (to === from + 1 && part.charCodeAt(from) === 32)) return false;
  for (let k = from; k < to; k++)
    if (UNIT_PUNCTUATION_CHARS.has(part.charCodeAt(k))) return UNIT_PUNCTUATION.test(part.slice(from, to));
  return false;
}

/** Index of the span containing each token (spans sorted, tokens sorted). */
function spanIndex(tokens: readonly Token[], spans: readonly Span[]): number[] {
  let k = 0;
  return tokens.map((t) => {
    while (k < spans.length - 1 && spans[k].end <= t.start) k++;
    return k;
  });
}

function units(part: string, tokens: readonly Token[], clauseOf: number[], sentenceOf: number[]) {
  const breaks = new Set<number>();
  const unitOf: number[] = [];
  const unitSentence: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (
      i === 0 ||
      clauseOf[i] !== clauseOf[i - 1] ||
      sentenceOf[i] !== sentenceOf[i - 1] ||
      punctuationBetween(part, tokens[i - 1].end, tokens[i].start) ||
      UNIT_WORDS.has(tokens[i].norm)
    ) {
      breaks.add(i);
      unitSentence.push(sentenceOf[i]);
    }
    unitOf.push(unitSentence.length - 1);
  }
  return { breaks, starts: [...breaks], unitOf, unitSentence };
}

/** "Not cheap, just fair": the unit a correction replaces carries no opinion. */
function dropCorrected(hits: Hit[], tokens: readonly Token[], starts: readonly number[], unitOf: number[]): Hit[] {
  const dropped = new Set<number>();
  for (let u = 1; u < starts.length; u++) {
    // "Not expensive, just not cheap either" corrects nothing: both halves stand (and are the middle).
    const corrected = correctionOpeners.has(tokens[starts[u]].norm) && !isNegator(tokens[starts[u] + 1]?.norm ?? "");
    if (corrected && isNegator(tokens[starts[u - 1]].norm)) dropped.add(u - 1);
  }
  return dropped.size ? hits.filter((h) => !dropped.has(unitOf[h.index])) : hits;
}

// Words an elliptical negation may end with after its negator: "not so much", "not really", "not at all".
const ELLIPSIS_TAIL = new Set(["so", "much", "really", "at", "all", "quite", "exactly", "either", "as"]);

/** Whether tokens[from..last] end in a negator, perhaps followed by a short tail ("not so much"). */
function endsNegated(tokens: readonly Token[], from: number, last: number): boolean {
  for (let k = last; k >= from && k >= last - 3; k--) {
    if (isNegator(tokens[k].norm)) return true;
    if (!ELLIPSIS_TAIL.has(tokens[k].norm)) return false;
  }
  return false;
}

/**
 * "The work is great, the price is not.", "The plumber was great. The office, not so much.": a unit ending in a
 * negator repeats the opinion before it, negated (over a bare subject unit such as "The office,"). After a
 * question ("Would I use them again? Probably not.") the answer replaces the opinion the question held.
 */
function ellipticalNegation(
  hits: Hit[],
  tokens: readonly Token[],
  starts: readonly number[],
  unitOf: number[],
  part: string,
) {
  const endOf = (u: number) => (starts[u + 1] ?? tokens.length) - 1;
  // Most parts have no unit that ends in a negator or its tail: nothing to build for them.
  let candidate = false;
  for (let u = 1; u < starts.length && !candidate; u++) {
    const end = tokens[endOf(u)].norm;
    candidate = isNegator(end) || ELLIPSIS_TAIL.has(end);
  }
  if (!candidate) return hits;
  const byUnit = new Map<number, number>();
  const negatedUnits = new Set<number>();
  for (const h of hits) {
    byUnit.set(unitOf[h.index], (byUnit.get(unitOf[h.index]) ?? 0) + h.valence);
    if (h.negated) negatedUnits.add(unitOf[h.index]);
  }
  const added: Hit[] = [];
  const answered = new Set<number>();
  for (let u = 1; u < starts.length; u++) {
    let last = endOf(u);
    // "not | so much": a tail that "so" split off is part of the ellipsis.
    while (last + 1 < tokens.length && unitOf[last + 1] !== unitOf[last] && !byUnit.has(unitOf[last + 1])) {
      const tail = unitOf[last + 1];
      let onlyTail = true;
      for (let k = last + 1; k <= endOf(tail); k++) if (!ELLIPSIS_TAIL.has(tokens[k].norm)) onlyTail = false;
      if (!onlyTail) break;
      last = endOf(tail);
    }
    if (byUnit.has(u) || last <= starts[u] || !endsNegated(tokens, starts[u], last)) continue;
    // The opinion answered: the unit before, or the one before a bare subject ("The office, not so much").
    const bare = u >= 2 && !byUnit.has(u - 1) && starts[u] - starts[u - 1] <= 3 && last - starts[u] < 3;
    const v = bare ? u - 2 : u - 1;
    const before = byUnit.get(v);
    if (before === undefined || negatedUnits.has(v)) continue;
    if (part.slice(tokens[starts[v + 1] - 1].end, tokens[starts[v + 1]].start).includes("?")) answered.add(v);
    added.push(makeHit(last, 1, NEGATION_FACTOR * before));
  }
  if (added.length === 0) return hits;
  return [...hits.filter((h) => !answered.has(unitOf[h.index])), ...added].sort((a, b) => a.index - b.index);
}

// Scare quotes: praise of one to three words set in quotes ("a 'quick' job", "Sure, 'fixed.'", "the 'free'
// estimate") is ironic, and says the opposite at least this strongly; words quoted after a verb of speech
// ("he said 'no problem'", "told us it was 'an easy fix'") are reported, not ironic.
const SCARE_QUOTED = -2;
const SCARE_QUOTE_WORDS = 3;
const SPEECH_REACH = 4;
const QUOTE_OPEN = /(?<=^|[\s(])['"‘“](?=\p{L})/gu;
const OPENING_QUOTES = ["'", '"', "‘", "“"];

/** Whether a quote may open in `part` (a quote mark at the start or after a space or parenthesis). */
function mayQuote(part: string): boolean {
  for (const q of OPENING_QUOTES)
    for (let at = part.indexOf(q); at >= 0; at = part.indexOf(q, at + 1)) {
      const before = at === 0 ? " " : part[at - 1];
      if (before === " " || before === "(" || before === "\n" || before === "\t") return true;
    }
  return false;
}
const QUOTE_CLOSE = /(?<=[\p{L}.!?])['"’”](?![\p{L}\p{N}])/u;
const SPEECH = new Set(["said", "says", "say", "saying", "told", "tells", "asked", "wrote", "replied", "answered"]);

/** Positive hits set in scare quotes turned into criticism (a quote must open and close within a few words). */
function scareQuoted(hits: Hit[], part: string, tokens: readonly Token[]): Hit[] {
  if (!hits.some((h) => h.valence > 0)) return hits;
  let out = hits;
  let ironic = false;
  const quoted = mayQuote(part) ? part.matchAll(QUOTE_OPEN) : [];
  for (const open of quoted) {
    const from = (open.index ?? 0) + 1;
    const close = QUOTE_CLOSE.exec(part.slice(from, from + 40));
    if (!close) continue;
    const to = from + close.index;
    const inside = tokens.filter((t) => t.start >= from && t.end <= to);
    if (inside.length === 0 || inside.length > SCARE_QUOTE_WORDS) continue;
    const first = tokens.indexOf(inside[0]);
    const last = first + inside.length - 1;
    if (tokens.slice(Math.max(0, first - SPEECH_REACH), first).some((t) => SPEECH.has(t.norm))) continue;
    out = out.map((h) => {
      if (h.valence <= 0 || h.index < first || h.index > last) return h;
      ironic = true;
      return { ...h, valence: Math.min(SCARE_QUOTED, -h.valence) };
    });
  }
  // "Oh great, another $200 to be told to change my filter. Thanks a lot.": once a part is plainly ironic (a
  // marker of irony, or praise in scare quotes), its other praise is ironic too.
  if (!ironic) ironic = hits.some((h) => h.ironic);
  return ironic ? out.map((h) => (h.valence > 0 ? { ...h, valence: -h.valence } : h)) : out;
}

// Words in -ing that are no verb of doing ("thing", "nothing", "morning", "ceiling").
const NOT_GERUNDS = new Set([
  ...["thing", "things", "nothing", "something", "anything", "everything", "morning", "evening", "during"],
  ...["ceiling", "building", "bring", "king", "ring", "spring", "string", "wiring", "plumbing", "heating"],
  ...["railing", "siding", "flooring", "awning", "pricing", "scheduling", "booking"],
]);

const JOB_NOUNS = new Set(["job", "work", "jobs"]);

/** The index of the first token of the unit of token i. */
function unitStart(unitOf: readonly number[], i: number): number {
  let k = i;
  while (k > 0 && unitOf[k - 1] === unitOf[i]) k--;
  return k;
}

/** "Fantastic job leaving the old water heater in my driveway", "great work flooding the basement": praise of a
 * job followed by what was done, when what was done is a complaint, is irony (and the part is ironic). */
function ironicPraise(hits: Hit[], tokens: readonly Token[], unitOf: number[], sentenceOf: number[]): Hit[] {
  if (!hits.some((h) => h.valence < 0) || !hits.some((h) => h.valence > 0)) return hits;
  return hits.map((h) => {
    if (h.valence <= 0) return h;
    let at = h.index + h.length;
    if (JOB_NOUNS.has(tokens[at]?.norm ?? "")) at++;
    const next = tokens[at];
    const gerund = next?.norm.endsWith("ing") && next.norm.length > 5 && !NOT_GERUNDS.has(next.norm);
    // "Real professional, leaving a pile of pipes in my yard": the praise may be a unit of its own.
    const sameUnit = unitOf[at] === unitOf[h.index];
    const ownUnit =
      unitOf[at] === unitOf[h.index] + 1 &&
      sentenceOf[at] === sentenceOf[h.index] &&
      at - unitStart(unitOf, h.index) <= 3;
    if (!gerund || !(sameUnit || ownUnit)) return h;
    const complaint = hits.some((o) => o.valence < 0 && o.index >= at && unitOf[o.index] === unitOf[at]);
    return complaint ? { ...h, ironic: true } : h;
  });
}

/** "Anyone know if the Comfort Club covers filters?": a question that opens with an auxiliary asks, it does not
 * praise (its criticism stays: "Will they ever answer the phone?"). */
function askedNotPraised(hits: Hit[], tokens: readonly Token[], sentenceOf: number[], spans: readonly Span[]): Hit[] {
  if (!spans.some((s) => s.text.endsWith("?"))) return hits;
  const opener = new Map<number, string>();
  for (let i = tokens.length - 1; i >= 0; i--) opener.set(sentenceOf[i], tokens[i].norm);
  return hits.filter((h) => {
    const s = sentenceOf[h.index];
    return h.valence < 0 || !spans[s].text.endsWith("?") || !questionOpeners.has(opener.get(s) ?? "");
  });
}

/** The hits of two figures set against each other ("quoted 400, paid 650"), in place of any opinion read from
 * the words they stand on. */
function withStatedFigures(hits: Hit[], tokens: readonly Token[], part: string): Hit[] {
  const figures = statedFigureHits(tokens, part);
  if (figures.length === 0) return hits;
  const kept = hits.filter((h) => !figures.some((f) => h.index < f.index + f.length && f.index < h.index + h.length));
  return [...kept, ...figures].sort((a, b) => a.index - b.index);
}

/** Cues the opinions themselves show ("the leak is back" is about the work, "in 20 minutes" about speed). */
function withImpliedCues(cues: Cue[], hits: readonly Hit[]): Cue[] {
  const extra: Cue[] = [];
  for (const h of hits) {
    const aspect = h.aspect;
    if (aspect === undefined) continue;
    const covered = cues.some(
      (c) => c.aspects.includes(aspect) && c.index < h.index + h.length && h.index < c.index + c.length,
    );
    if (!covered) extra.push({ index: h.index, length: h.length, aspects: [aspect] });
  }
  return extra.length ? [...cues, ...extra].sort((a, b) => a.index - b.index) : cues;
}

// A number per aspect for the key of one aspect in one clause of one part (no string built per cue).
const aspectKeys = new Map<string, number>();
const ASPECT_KEYS = 64;
function aspectKey(aspect: string): number {
  let k = aspectKeys.get(aspect);
  if (k === undefined) {
    k = aspectKeys.size;
    aspectKeys.set(aspect, k);
  }
  return k;
}

/** The rules' findings over a title and a text: weighted opinion masses and aspects (before the verdict). */
export function ruleFindings(parts: readonly string[], neutral: ReadonlySet<string>) {
  const masses = noMasses();
  const aspects: AspectMention[] = [];
  const byKey = new Map<number, AspectMention>();
  // Each part's clauses (the aspect layer quotes one for an aspect the rules did not find).
  const partClauses: Span[][] = [];
  for (const [partIndex, part] of parts.entries()) {
    const tokens = typos.apply(tokenize(part), neutral);
    const sentenceSpans = sentences(part);
    const clauseSpans = clauses(part, sentenceSpans);
    partClauses.push(clauseSpans);
    if (clauseSpans.length === 0) continue;
    const clauseOf = spanIndex(tokens, clauseSpans);
    const sentenceOf = spanIndex(tokens, sentenceSpans);
    const { breaks, starts, unitOf, unitSentence } = units(part, tokens, clauseOf, sentenceOf);
    const list = listLabels(part, tokens, sentenceOf);
    if (list.prosAndCons) masses.saysMixed = true;
    const opinions = withStatedFigures(clauseHits(tokens, neutral, breaks), tokens, part);
    const hits = ellipticalNegation(
      dropCorrected(
        scareQuoted(
          ironicPraise(
            list.tokens.size ? opinions.filter((h) => !list.tokens.has(h.index)) : opinions,
            tokens,
            unitOf,
            sentenceOf,
          ),
          part,
          tokens,
        ),
        tokens,
        starts,
        unitOf,
      ),
      tokens,
      starts,
      unitOf,
      part,
    );
    const found = findCues(tokens);
    const scoped = dropSituation(
      dropThanked(
        askedNotPraised(
          changedState(
            dropExpected(rescopeHits(hits, tokens, starts, unitOf, sentenceOf), tokens, unitOf),
            tokens,
            sentenceOf,
          ),
          tokens,
          sentenceOf,
          sentenceSpans,
        ),
        tokens,
        sentenceOf,
      ),
      tokens,
      unitOf,
      found,
      neutral,
    );
    const cues = withImpliedCues(found, scoped);
    const polarities = bindCues(cues, scoped, unitOf, unitSentence);
    const praisedWork = new Set<number>();
    const faultedWork = new Set<number>();
    // A unit that faults the work ("the work was sloppy"), not another aspect with the job's name in it ("too
    // pricey for a tune-up").
    const faultedOther = new Set<number>();
    const faultedPrice = new Set<number>();
    for (let k = 0; k < cues.length; k++) {
      const cue = cues[k];
      if (polarities[k] !== "negative") continue;
      if (!cue.aspects.includes("workmanship")) faultedOther.add(unitOf[cue.index]);
      if (cue.aspects.includes("price_value")) faultedPrice.add(clauseOf[cue.index]);
    }
    for (let k = 0; k < cues.length; k++) {
      const cue = cues[k];
      if (!cue.aspects.includes("workmanship")) continue;
      if (polarities[k] === "positive") praisedWork.add(clauseOf[cue.index]);
      else if (polarities[k] === "negative" && !faultedOther.has(unitOf[cue.index]))
        faultedWork.add(clauseOf[cue.index]);
    }
    addClauseMasses(
      masses,
      scoped,
      tokens,
      clauseOf,
      sentenceOf,
      clauseSpans.length,
      praisedWork,
      faultedWork,
      faultedPrice,
    );
    for (let k = 0; k < cues.length; k++) {
      const cue = cues[k];
      const quote = clauseSpans[clauseOf[cue.index]];
      for (const aspect of cue.aspects) {
        const key = (quote.start * parts.length + partIndex) * ASPECT_KEYS + aspectKey(aspect);
        const seen = byKey.get(key);
        // "Quick to answer, slow to fix": one clause may say opposite things of one aspect.
        if (seen && (seen.polarity === polarities[k] || polarities[k] === "neutral")) continue;
        if (seen?.polarity === "neutral") {
          seen.polarity = polarities[k];
          continue;
        }
        const mention = { aspect, polarity: polarities[k], quote: quote.text };
        byKey.set(key, mention);
        aspects.push(mention);
      }
    }
  }
  return { masses, aspects, clauses: partClauses };
}

/**
 * The rules' findings, their own verdict and the model's features of them (one rules pass). The names in `neutral`
 * do not count in the review's length: no name sways a label, in training as in the engine.
 */
export function ruleAnalysis(parts: readonly string[], neutral: ReadonlySet<string> = new Set()) {
  const { masses, aspects, clauses } = ruleFindings(parts, neutral);
  const rules = verdict(masses);
  return { masses, aspects, clauses, rules, features: labelFeatures(masses, rules, aspects, parts, neutral) };
}

/** The rules' findings of a title and a text as the model's features (FEATURE_NAMES order). */
export function labelFeaturesOf(parts: readonly string[], neutral: ReadonlySet<string> = new Set()): number[] {
  return ruleAnalysis(parts, neutral).features;
}

/** The analysis with the rules' own labels and score (engine 2.6.0's output): what a rule's test asserts. */
export function analyzeByRules(parts: readonly string[], neutral: ReadonlySet<string> = new Set()): TextAnalysis {
  const { masses, aspects } = ruleFindings(parts, neutral);
  const { score, label, overall } = verdict(masses);
  return { sentiment: { score, label }, overall, aspects };
}

/** The models the analysis reads: the engine's own (engineModels), or a cross-validation fold's. */
export interface EngineModels {
  review: ReviewModel;
  layer: AspectLayer;
  /** Without a verifier the hand-written chip rules alone decide which chips are shown. */
  verifier?: ChipVerifier;
}
let engine: EngineModels | undefined;
/** The engine's own models, loaded on first use. */
export function engineModels(): EngineModels {
  if (!engine) {
    const review = reviewModel();
    engine = { review, layer: aspectLayer(review), verifier: chipVerifier() };
  }
  return engine;
}

/**
 * Analyses a title and a text together; quotes are exact substrings of one of them. The text is hashed once: its
 * buckets feed the review model (labels, score) and then the aspect layer (aspects, from the rules' and the
 * review model's inputs); the chips a reader may be shown are then chosen (chipReadings).
 */
export function analyzeText(parts: readonly string[], neutral: ReadonlySet<string> = new Set()): TextAnalysis {
  return analyzeWith(engineModels(), parts, neutral);
}

/** analyzeText with other models (a cross-validation fold's). */
export function analyzeWith(
  models: EngineModels,
  parts: readonly string[],
  neutral: ReadonlySet<string>,
): TextAnalysis {
  const { analysis, chips } = chipReadings(models, parts, neutral);
  return {
    sentiment: analysis.sentiment,
    overall: analysis.overall,
    aspects: analysis.aspects.filter((a) => chips.get(a)?.shown ?? true),
  };
}

/** A review read in context, with what the chip verifier reads of it. */
interface InContext extends TextAnalysis {
  /** The review model's combiner inputs (COMBINER_FEATURES) and the aspect layer's probabilities. */
  inputs: Float64Array;
  layer: Float64Array;
  rules: AspectMention[];
}

function analyzeInContext(models: EngineModels, parts: readonly string[], neutral: ReadonlySet<string>): InContext {
  const { aspects, clauses, features } = ruleAnalysis(parts, neutral);
  const model = models.review;
  const inputs = new Float64Array(COMBINER_FEATURES.length);
  const buckets = textBuckets(parts, model.features, neutral, true);
  const { score, label, overall } = verdictOfBuckets(model, features, buckets, inputs);
  const review = { parts, clauses, buckets, places: lastBucketPlaces(), inputs, rules: aspects };
  const layer = new Float64Array(ASPECTS.length * LAYER_PROBABILITIES);
  const given = layerAspects(models.layer, review, layer);
  return { sentiment: { score, label }, overall, aspects: given, inputs, layer, rules: aspects };
}

const OPPOSITE: Partial<Record<string, string>> = { positive: "negative", negative: "positive" };
// A quote that opens with a condition judges nothing by itself ("If you want a company that returns calls, keep
// looking."): its polarity lives in the rest of the review.
const CONDITIONAL = /^\s*(?:if|unless|whether)\b/i;
// "Pricey, yes, but the other bid was $3k more", "Not cheap, but you get what you pay for": price criticism conceded
// before a turn is weighed by the writer against what follows, which the quote leaves out.
const CONCEDED = /^[\s,;:—–-]*(?:but|though|although|however|yet)\b/i;
// The least a quote read alone must lean the chip's way to show praise of an aspect it does not itself praise, in a
// review not read as positive: weaker evidence is often the first half of a complaint.
const WEAK_PRAISE = 0.15;

// A quote that ends in a bare denial after its subject ("Fixed: no.", "Showed up on time? Nope."): the answer denies
// what the quote names.
const DENIED = /[:?—–]\s*(?:no|not|nope|nah|never)\W*$/i;

// Praise someone else voiced: a claim reported in the speaker's words, its quotation still open at the quote's end
// ('I was told "twenty minutes tops.'), or a third party's verdict ("My friend said they were great for her").
const REPORTED = /\b(?:told|tells|said|says|promised|assured|claimed|insisted|swore)\b[^"“”]{0,20}["“][^"”]*$/i;
const HEARSAY =
  /\b(?:friends?|neighbou?rs?|everyone|everybody|people|reviews?|sister|brother|mom|dad|co-?workers?)\b[^.]{0,20}\b(?:said|say|says|told|swore|swears|raved|claim|claimed)\b/i;
// One visit of a story of several: praise of the first, with a later one told after it ("First visit, Will was
// outstanding... Second visit a different tech came").
const FIRST_VISIT =
  /\b(?:first|1st) (?:visit|time|tech|guy|technician|appointment|trip|call)\b|\bat first\b|\binitially\b/i;
const LATER_VISIT =
  /\b(?:second|2nd|next|another|different|other|third|return|follow-up) (?:visit|time|tech|guy|technician|appointment|trip|call)\b|\bthis time\b|\bcame back\b/i;

/** The text after the quote in the part that holds it. */
function after(quote: string, parts: readonly string[]): string {
  for (const part of parts) {
    const at = part.indexOf(quote);
    if (at >= 0) return part.slice(at + quote.length);
  }
  return "";
}

/** Whether a turn ("but", "though") follows the quote in the part that holds it. */
function turnFollows(quote: string, parts: readonly string[]): boolean {
  return CONCEDED.test(after(quote, parts).slice(0, 16));
}

// The work praised only by saying it was done ("Fixed the toilet, but the drain line is still gurgling", "The new
// faucet works but there's caulk smeared all over"): followed by a turn, the writer's verdict on the work lies after it.
const JOB_DONE = new Set(["fixed", "fix", "works", "working", "repaired", "replaced", "installed", "done"]);

/** Whether the quote's only opinion is that the job was done. */
function onlyJobDone(quote: string): boolean {
  const tokens = tokenize(quote);
  if (!tokens.some((t) => JOB_DONE.has(t.norm))) return false;
  const hits = clauseHits(tokens);
  return (
    hits.length > 0 && hits.every((h) => tokens.slice(h.index, h.index + h.length).every((t) => JOB_DONE.has(t.norm)))
  );
}

/** Praise another voiced, or praise of a first visit that a later one follows (for a review not read as positive). */
function praiseNotTheWriters(quote: string, parts: readonly string[]): boolean {
  if (REPORTED.test(quote) || HEARSAY.test(quote)) return true;
  return FIRST_VISIT.test(quote) && LATER_VISIT.test(after(quote, parts));
}

/**
 * Why the hand-written chip rules abstain from a praising or criticising chip (the verifier reads each reason as a
 * feature; without a verifier, any reason hides the chip):
 * - The review as a whole carries the opposite label. A wholly negative review with a praising chip (or the
 *   reverse) means one of the two readings is wrong: a concession ("Not cheap, but..."), a problem told as a story,
 *   sarcasm, another company's failing read as a judgement.
 * - The quote, read alone, says the opposite: as a whole or of that aspect. A long review's tone can flip a clause.
 * - The quote alone does not carry the chip: it neither names the aspect nor leans the chip's way, or it opens
 *   with a condition.
 * - Praise in a review not read as positive whose quote, read alone, neither praises that aspect nor praises
 *   clearly as a whole (WEAK_PRAISE); praise whose quote ends in a bare denial ("Fixed: no.").
 * - Price criticism followed by a turn ("Pricey, yes, but..."), praise of the work that only says it was done
 *   followed by a turn ("Fixed the toilet, but..."): the writer's verdict lies after the turn.
 * - Praise that is not the writer's finding, in a review not read as positive: a claim or verdict another person
 *   voiced, or a first visit's when a later visit is told after it.
 */
function abstentions(
  a: AspectMention,
  analysis: TextAnalysis,
  read: TextAnalysis,
  parts: readonly string[],
): Set<Abstention> {
  const out = new Set<Abstention>();
  const opposite = OPPOSITE[a.polarity];
  const praise = a.polarity === "positive";
  if (analysis.overall === opposite) out.add("review_opposite");
  if (CONDITIONAL.test(a.quote)) out.add("conditional");
  if (praise && DENIED.test(a.quote)) out.add("denied");
  if (praise && analysis.overall !== "positive" && praiseNotTheWriters(a.quote, parts)) out.add("not_writers");
  if (a.aspect === "price_value" && !praise && turnFollows(a.quote, parts)) out.add("conceded_price");
  if (a.aspect === "workmanship" && praise && turnFollows(a.quote, parts) && onlyJobDone(a.quote))
    out.add("job_done_turn");
  if (read.overall === opposite) out.add("alone_opposite");
  const own = read.aspects.filter((b) => b.aspect === a.aspect);
  if (own.some((b) => b.polarity === opposite)) out.add("alone_aspect_opposite");
  const carried = own.some((b) => b.polarity === a.polarity);
  if (praise && analysis.overall !== "positive" && read.sentiment.score < WEAK_PRAISE && !carried)
    out.add("weak_praise");
  if (own.length === 0 && read.sentiment.label !== a.polarity) out.add("not_carried");
  return out;
}

/** What the engine read of one praising or criticising chip, and whether a reader is shown it. */
export interface ChipDecision {
  features: number[];
  abstentions: ReadonlySet<Abstention>;
  /** The verifier's probability that the chip contradicts the writer (without a verifier: 0 or 1 by the rules). */
  contradiction: number;
  shown: boolean;
}

/**
 * The analysis in context and, for each of its praising or criticising aspects, what the chip verifier reads and
 * whether the chip is shown: the engine abstains rather than show a chip its verifier doubts. A neutral chip
 * contradicts no writer and is always shown.
 */
export function chipReadings(models: EngineModels, parts: readonly string[], neutral: ReadonlySet<string>) {
  const analysis = analyzeInContext(models, parts, neutral);
  const written = parts.filter((p) => p.trim() !== "");
  const alone = new Map<string, TextAnalysis>();
  // A review of one clause is its own context: its quote read alone is the review.
  if (written.length === 1) alone.set(written[0].trim(), analysis);
  const chips = new Map<AspectMention, ChipDecision>();
  let cues: ReviewCues | undefined;
  for (const a of analysis.aspects) {
    if (OPPOSITE[a.polarity] === undefined) continue;
    let read = alone.get(a.quote);
    if (!read) {
      read = analyzeInContext(models, [a.quote], neutral);
      alone.set(a.quote, read);
    }
    const why = abstentions(a, analysis, read, parts);
    cues ??= reviewCues(parts);
    const features = chipFeatures({
      chip: a,
      parts,
      overall: analysis.overall,
      score: analysis.sentiment.score,
      inputs: analysis.inputs,
      rules: analysis.rules,
      layer: analysis.layer,
      alone: { overall: read.overall, score: read.sentiment.score, aspects: read.aspects },
      abstentions: why,
      cues,
    });
    const { verifier } = models;
    const contradiction = verifier ? contradictionProbability(verifier, features) : why.size > 0 ? 1 : 0;
    const shown = verifier
      ? contradiction < verifier.threshold && !verifier.veto.some((r) => why.has(r))
      : why.size === 0;
    chips.set(a, { features, abstentions: why, contradiction, shown });
  }
  return { analysis, chips };
}
