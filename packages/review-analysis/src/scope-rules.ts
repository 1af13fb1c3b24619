// Rules over a part's opinion hits that look past one unit: "neither great nor terrible" is the middle, not
// praise and criticism; opinions about a foil ("the last company messed up", "the old one was a disaster")
// are not about this business; a complaint the reviewer dismisses ("a few minutes late, no big deal") or
// calls minor ("my only gripe") weighs little.
import lexicon from "./lexicon/sentiment.json" with { type: "json" };
import type { Hit } from "./sentiment.ts";
import { PhraseTable, type Token } from "./tokenize.ts";

const foil = lexicon.foil;
const foilModifiers = new Set(foil.modifiers);
const oldModifiers = new Set(foil.old_modifiers);
const foilNouns = new Set(foil.nouns);
const oldNouns = new Set(foil.old_nouns);
const comparison = new Set(foil.comparison);
const relativeOpeners = new Set(["who", "whose", "which"]);
const usedBefore = PhraseTable.of(foil.used_before);
const dismissals = PhraseTable.of(lexicon.dismissals);
const minorMarkers = PhraseTable.of(lexicon.minor_markers);
// Two negated opinions of opposite sign this close are one judgement of the middle.
const MIDDLE_GAP = 4;
const DISMISSED = 0.2;
const MINOR = 0.5;

/** Index where a foil noun phrase starts in tokens[lo..hi], or -1 ("two other companies", "the old one"); a
 * comparison word ends the search unless `inComparison` (a foil compared with is still a foil). */
function foilStart(tokens: readonly Token[], lo: number, hi: number, inComparison = false): number {
  for (let k = lo; k <= hi; k++) {
    const w = tokens[k].norm;
    if (comparison.has(w) && !inComparison) return -1;
    // "the plumber we had before"
    if (foilNouns.has(w) && k + 1 <= hi && usedBefore.match(tokens, k + 1)) return k;
    const nouns = foilModifiers.has(w) ? foilNouns : oldModifiers.has(w) ? oldNouns : undefined;
    if (!nouns) continue;
    for (let j = k + 1; j <= Math.min(hi, k + 2); j++) if (nouns.has(tokens[j].norm)) return k;
  }
  return -1;
}

const NO_SENTENCES: ReadonlySet<number> = new Set();

// "Doesn't matter when the heat still doesn't work": a dismissal that goes on with "when" or "if" dismisses
// nothing.
const RHETORICAL_AFTER = new Set(["when", "if", "how", "because"]);

function markedSentences(
  tokens: readonly Token[],
  sentenceOf: readonly number[],
  table: PhraseTable<true>,
): ReadonlySet<number> {
  const out = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const m = table.match(tokens, i);
    if (m && !RHETORICAL_AFTER.has(tokens[i + m.length]?.norm ?? "")) out.add(sentenceOf[i]);
  }
  return out;
}

const problemWords = new Set(lexicon.problem_words);
const negatorWords = new Set(lexicon.negators);
const situationAgents = new Set([...lexicon.agents, ...lexicon.situation_agents]);
// "blowing warm air", "no heat": the state of the equipment is the problem too.
const problemStates = PhraseTable.of(lexicon.problem_states);

/**
 * "Sewer line backed up into the basement. Horrible mess. Their crew had it flowing by noon.": the units that
 * open a part, before anyone who did the job (an agent, a name) or an aspect of it appears, describe the
 * situation when they name a problem; their criticism is of the situation, not of the business, and is dropped.
 * A failure among them ("broke again") makes them a complaint instead. `cues`: the aspect cues, in order.
 */
export function dropSituation(
  hits: Hit[],
  tokens: readonly Token[],
  unitOf: readonly number[],
  cues: readonly { index: number }[],
  neutral: ReadonlySet<string>,
): Hit[] {
  if (!hits.some((h) => h.valence < 0)) return hits;
  let actor = -1;
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i].norm;
    if (situationAgents.has(w) || neutral.has(w)) {
      actor = unitOf[i];
      break;
    }
  }
  for (const { index: at } of cues) {
    if (actor >= 0 && unitOf[at] >= actor) break;
    if (!problemWords.has(tokens[at].norm) && !problemStates.match(tokens, at)) {
      actor = unitOf[at];
      break;
    }
  }
  if (actor <= 0) return hits;
  let problem = false;
  for (let i = 0; i < tokens.length && unitOf[i] < actor; i++)
    if (problemWords.has(tokens[i].norm) || problemStates.match(tokens, i)) problem = true;
  if (!problem || hits.some((h) => h.failure && unitOf[h.index] < actor)) return hits;
  return hits.filter((h) => h.valence > 0 || unitOf[h.index] >= actor);
}

const gratitudeOpeners = new Set(lexicon.gratitude_openers);

/**
 * "thank you marcus for coming out so late on a friday": in a sentence that opens with thanks, criticism
 * (other than a failed job) describes what the thanks are for, and is dropped.
 */
export function dropThanked(hits: Hit[], tokens: readonly Token[], sentenceOf: readonly number[]): Hit[] {
  if (!hits.some((h) => h.valence < 0 && !h.failure)) return hits;
  const thanked = new Set<number>();
  for (let i = 0; i < tokens.length; i++)
    if ((i === 0 || sentenceOf[i - 1] !== sentenceOf[i]) && gratitudeOpeners.has(tokens[i].norm))
      thanked.add(sentenceOf[i]);
  if (thanked.size === 0) return hits;
  return hits.filter((h) => h.valence > 0 || h.failure || h.ironic || !thanked.has(sentenceOf[h.index]));
}

/** The hits with middle pairs and foil opinions removed and dismissed or minor complaints scaled down. */
export function rescopeHits(
  hits: Hit[],
  tokens: readonly Token[],
  starts: readonly number[],
  unitOf: readonly number[],
  sentenceOf: readonly number[],
): Hit[] {
  if (hits.length === 0) return hits;
  const drop = new Set<Hit>();
  for (let k = 1; k < hits.length; k++) {
    const a = hits[k - 1];
    const b = hits[k];
    if (
      a.negated &&
      b.negated &&
      Math.sign(a.valence) !== Math.sign(b.valence) &&
      sentenceOf[a.index] === sentenceOf[b.index] &&
      b.index - (a.index + a.length) <= MIDDLE_GAP
    ) {
      drop.add(a);
      drop.add(b);
    }
  }
  // A foil drops only hits of its own unit: units without a hit are not searched.
  const withHits = new Set<number>();
  for (const h of hits) withHits.add(unitOf[h.index]);
  for (let u = 0; u < starts.length; u++) {
    if (!withHits.has(u)) continue;
    const lo = starts[u];
    const hi = (starts[u + 1] ?? tokens.length) - 1;
    const at = foilStart(tokens, lo, hi);
    if (at >= 0) for (const h of hits) if (unitOf[h.index] === u && h.index > at) drop.add(h);
    // "better than the last outfit we used, who never cleaned up": a relative clause after a foil is about it.
    if (u > 0 && relativeOpeners.has(tokens[lo].norm) && foilStart(tokens, starts[u - 1], lo - 1, true) >= 0)
      for (const h of hits) if (unitOf[h.index] === u) drop.add(h);
  }
  // Only a complaint can be dismissed or minor: without one, the sentences are not searched.
  const complaint = hits.some((h) => h.valence < 0);
  const dismissed = complaint ? markedSentences(tokens, sentenceOf, dismissals) : NO_SENTENCES;
  const minor = complaint ? markedSentences(tokens, sentenceOf, minorMarkers) : NO_SENTENCES;
  const out: Hit[] = [];
  for (const h of hits) {
    if (drop.has(h)) continue;
    const s = sentenceOf[h.index];
    if (h.valence < 0 && (dismissed.has(s) || minor.has(s)))
      out.push({ ...h, valence: h.valence * (dismissed.has(s) ? DISMISSED : MINOR), failure: false });
    else out.push(h);
  }
  return out;
}

const expectationVerbs = new Set(lexicon.expectation_verbs);
const EXPECTATION_REACH = 5;

/**
 * "I was expecting a hard sell", "we braced for a huge mess, but...": criticism the reviewer only expected is no
 * event of the visit, and is dropped ("didn't expect them to be so rude" is: the negator keeps it).
 */
export function dropExpected(hits: Hit[], tokens: readonly Token[], unitOf: readonly number[]): Hit[] {
  if (!hits.some((h) => h.valence < 0)) return hits;
  return hits.filter((h) => {
    if (h.valence >= 0 || h.failure) return true;
    for (let k = h.index - 1; k >= Math.max(0, h.index - EXPECTATION_REACH) && unitOf[k] === unitOf[h.index]; k--) {
      if (!expectationVerbs.has(tokens[k].norm)) continue;
      for (let j = k - 1; j >= Math.max(0, k - 3) && unitOf[j] === unitOf[k]; j--) {
        const w = tokens[j].norm;
        if (negatorWords.has(w) || w.endsWith("n't")) return true;
      }
      return false;
    }
    return true;
  });
}

const changedBefore = PhraseTable.of(lexicon.changed_state.before);
const untilWords = new Set(lexicon.changed_state.until);
const CHANGE_REACH = 4;
const CHANGED = -0.6;
const UNTIL_REACH = 2;

/**
 * "They used to be great.", "seemed nice at first", "Everything was great until the bill came": praise of a
 * state that has since changed is criticism of the present, weaker than the praise was. The marker stands
 * within a few words of the praise, in its sentence ("used to", "at first", "initially" before or after it;
 * "until" right after it).
 */
export function changedState(hits: Hit[], tokens: readonly Token[], sentenceOf: readonly number[]): Hit[] {
  if (!hits.some((h) => h.valence > 0)) return hits;
  let marked = false;
  for (let i = 0; i < tokens.length && !marked; i++)
    marked = untilWords.has(tokens[i].norm) || !!changedBefore.match(tokens, i);
  if (!marked) return hits;
  return hits.map((h) => {
    if (h.valence <= 0) return h;
    const s = sentenceOf[h.index];
    const lo = Math.max(0, h.index - CHANGE_REACH);
    const hi = Math.min(tokens.length - 1, h.index + h.length + CHANGE_REACH);
    for (let k = lo; k <= hi; k++) {
      if (sentenceOf[k] !== s || (k >= h.index && k < h.index + h.length)) continue;
      // "great until the bill came", "fine right up until": "until" right after the praise ("worked straight
      // through until it was done" is a span of time).
      const until = k > h.index && k <= h.index + h.length + UNTIL_REACH && untilWords.has(tokens[k].norm);
      const changed = until || changedBefore.match(tokens, k) !== undefined;
      if (changed) return { ...h, valence: h.valence * CHANGED };
    }
    return h;
  });
}
