// Per-review analysis: sentiment score and label, aspects with exact quotes.
import type { Aspect, Sentiment } from "../schemas/common.ts";
import aspectLexicon from "./lexicon/aspects.json" with { type: "json" };
import { clauses } from "./segment.ts";
import {
  clauseHits,
  clauseWeight,
  type Hit,
  labelOf,
  normalizeScore,
  opensContrast,
  polarityOf,
  sum,
} from "./sentiment.ts";
import { PhraseTable, tokenize } from "./tokenize.ts";

const cueTable = (() => {
  const byCue = new Map<string, Aspect[]>();
  for (const [aspect, cues] of Object.entries(aspectLexicon.aspects)) {
    for (const cue of cues) byCue.set(cue, [...(byCue.get(cue) ?? []), aspect as Aspect]);
  }
  return new PhraseTable<Aspect[]>(byCue);
})();

/** The aspect cue words and phrases in a text, as written in the cue lexicon. */
export function aspectCues(text: string): { aspect: Aspect; cue: string }[] {
  const tokens = tokenize(text);
  const out: { aspect: Aspect; cue: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const cue = cueTable.match(tokens, i);
    if (!cue) continue;
    const words = tokens
      .slice(i, i + cue.length)
      .map((t) => t.norm)
      .join(" ");
    for (const aspect of cue.value) out.push({ aspect, cue: words });
    i += cue.length - 1;
  }
  return out;
}

export interface AspectMention {
  aspect: Aspect;
  polarity: Sentiment;
  quote: string;
}

export interface TextAnalysis {
  sentiment: { score: number; label: Sentiment };
  /** The review's label for the insights, `mixed` included. */
  overall: Sentiment | "mixed";
  aspects: AspectMention[];
}

/** Polarity of an aspect cue: the nearest sentiment hit when the clause mixes signs, else the clause's. */
function aspectPolarity(hits: readonly Hit[], cueIndex: number, clauseTotal: number): Sentiment {
  const signs = new Set(hits.map((h) => Math.sign(h.valence)));
  if (signs.size <= 1) return polarityOf(clauseTotal);
  let best = hits[0];
  for (const h of hits) if (Math.abs(h.index - cueIndex) < Math.abs(best.index - cueIndex)) best = h;
  return polarityOf(best.valence);
}

/** Analyses a title and a text together; quotes are exact substrings of one of them. */
export function analyzeText(parts: readonly string[], neutral?: ReadonlySet<string>): TextAnalysis {
  let total = 0;
  let previous = 0;
  const aspects: AspectMention[] = [];
  const seen = new Set<string>();
  for (const [partIndex, part] of parts.entries()) {
    for (const clause of clauses(part)) {
      const tokens = tokenize(clause.text);
      const hits = clauseHits(tokens, neutral);
      const clauseTotal = sum(hits);
      const weighted = clauseTotal * clauseWeight(tokens);
      // "X but Y": Y carries the verdict, so X counts half.
      if (opensContrast(tokens)) total -= previous / 2;
      total += weighted;
      previous = weighted;
      for (let i = 0; i < tokens.length; i++) {
        const cue = cueTable.match(tokens, i);
        if (!cue) continue;
        for (const aspect of cue.value) {
          const key = `${aspect}|${partIndex}|${clause.start}`;
          if (seen.has(key)) continue;
          seen.add(key);
          aspects.push({ aspect, polarity: aspectPolarity(hits, i, clauseTotal), quote: clause.text });
        }
        i += cue.length - 1;
      }
    }
  }
  const score = normalizeScore(total);
  return { sentiment: { score, label: labelOf(score) }, overall: labelOf(score), aspects };
}
