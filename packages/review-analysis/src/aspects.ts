// Aspect cues (explicit and implicit) and their binding to the opinions that govern them: the cue's own
// valence, else the nearest opinion in its unit, else a free opinion (one not about another aspect) in a
// neighbouring unit of the same sentence ("the work, though, is excellent").

import aspectLexicon from "./lexicon/aspects.json" with { type: "json" };
import { type Hit, polarityOf, sum } from "./sentiment.ts";
import { PhraseTable, type Token, tokenize } from "./tokenize.ts";
import type { Aspect, Sentiment } from "./vocabulary.ts";

export const ASPECT_LEXICON_VERSION = aspectLexicon.version;

export const cueTable = (() => {
  const byCue = new Map<string, Aspect[]>();
  for (const [aspect, cues] of Object.entries(aspectLexicon.aspects)) {
    for (const cue of cues) byCue.set(cue, [...(byCue.get(cue) ?? []), aspect as Aspect]);
  }
  // "good tech", "terrible plumber": a judgement of the person's competence is about the work.
  for (const adjective of aspectLexicon.competence.adjectives)
    for (const person of aspectLexicon.competence.people) byCue.set(`${adjective} ${person}`, ["workmanship"]);
  // Longer phrases that contain a cue word but name no aspect ("service call").
  for (const phrase of aspectLexicon.not_cues) byCue.set(phrase, []);
  return new PhraseTable<Aspect[]>(byCue);
})();

/** Single-word cues a misspelling may stand for. */
export const cueTargets: readonly string[] = Object.values(aspectLexicon.aspects)
  .flat()
  .filter((c) => !/\s/.test(c));

/** Every word in the cue lexicon (for spelling tolerance). */
export const cueVocabulary: ReadonlySet<string> = new Set(
  Object.values(aspectLexicon.aspects).flatMap((cues) => cues.flatMap((c) => c.split(/\s+/))),
);

export interface Cue {
  index: number;
  length: number;
  aspects: Aspect[];
}

// A word starting with a-z is never money: the test is skipped for it.
const MONEY = /^\p{Sc}\p{N}/u;

export function findCues(tokens: readonly Token[]): Cue[] {
  const out: Cue[] = [];
  for (let i = 0; i < tokens.length; i++) {
    // "$189", "€40": an amount of money is about the price.
    const c = tokens[i].norm.charCodeAt(0);
    if ((c < 97 || c > 122) && MONEY.test(tokens[i].norm)) {
      out.push({ index: i, length: 1, aspects: ["price_value"] });
      continue;
    }
    const cue = cueTable.match(tokens, i);
    if (!cue) continue;
    if (cue.value.length === 0) {
      i += cue.length - 1;
      continue;
    }
    out.push({ index: i, length: cue.length, aspects: cue.value });
    i += cue.length - 1;
  }
  return out;
}

/** The aspect cue words and phrases in a text, as written in the cue lexicon. */
export function aspectCues(text: string): { aspect: Aspect; cue: string }[] {
  const tokens = tokenize(text);
  return findCues(tokens).flatMap((c) => {
    const words = tokens
      .slice(c.index, c.index + c.length)
      .map((t) => t.norm)
      .join(" ");
    return c.aspects.map((aspect) => ({ aspect, cue: words }));
  });
}

const NEIGHBOUR_UNITS = 2;
const overlaps = (h: Hit, c: Cue) => h.index < c.index + c.length && c.index < h.index + h.length;

function polarityWithin(hits: readonly Hit[], at: number): Sentiment {
  const signs = new Set(hits.map((h) => Math.sign(h.valence)));
  if (signs.size <= 1) return polarityOf(sum(hits));
  let best = hits[0];
  for (const h of hits) if (Math.abs(h.index - at) < Math.abs(best.index - at)) best = h;
  return polarityOf(best.valence);
}

/**
 * Polarity of each cue. `unitOf[i]`: the opinion unit of token i; `sentenceOf[u]`: the sentence of unit u.
 */
export function bindCues(
  cues: readonly Cue[],
  hits: readonly Hit[],
  unitOf: readonly number[],
  sentenceOf: readonly number[],
): Sentiment[] {
  const hitsByUnit = new Map<number, Hit[]>();
  for (const h of hits) {
    const list = hitsByUnit.get(unitOf[h.index]);
    if (list) list.push(h);
    else hitsByUnit.set(unitOf[h.index], [h]);
  }
  const unitsWithCues = new Set(cues.map((c) => unitOf[c.index]));
  return cues.map((cue) => {
    const unit = unitOf[cue.index];
    const inUnit = hitsByUnit.get(unit);
    // A cue's own opinion lies in its unit.
    const own = inUnit?.filter((h) => overlaps(h, cue));
    if (own?.length) return polarityOf(sum(own));
    if (inUnit?.length) return polarityWithin(inUnit, cue.index);
    for (let d = 1; d <= NEIGHBOUR_UNITS; d++) {
      for (const u of [unit + d, unit - d]) {
        const free = hitsByUnit.get(u);
        if (free?.length && !unitsWithCues.has(u) && sentenceOf[u] === sentenceOf[unit]) return polarityOf(sum(free));
      }
    }
    return "neutral";
  });
}
