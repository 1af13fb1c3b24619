// What the insights need from each review that costs more than reading its record: the keyphrase candidates
// of its words and the cue terms of each aspect mention. Computed once per review, so the build can keep them
// in its incremental cache and analyse them in worker threads; the insights add them up.
import { aspectCues, nameWords, sentimentWords, stopwords, tokenize } from "@rps/review-analysis";
import { boundedMemo } from "../bounded-memo.ts";
import type { Business, ReviewRecord } from "../schemas/published.ts";

export interface ReviewInsightParts {
  /** Keyphrase candidates of the title and text, each once, in the order first found. */
  phrases: string[];
  /** Per entry of `record.aspects`, the cues of its quote for that aspect (duplicates kept). */
  cues: string[][];
}

/** The parts of one record; `business` decides which names are never keyphrases. */
export type InsightPartsOf = (record: ReviewRecord) => ReviewInsightParts;

/** The longest keyphrase, in words. */
const MAX_WORDS = 3;

/** Can this word be part of a keyphrase? No stopwords, no sentiment words, no catalog names. */
function usableWord(w: string, exclude: Set<string>): boolean {
  return (
    /^\p{L}[\p{L}-]*$/u.test(w) &&
    !w.endsWith("ly") &&
    w.length >= 3 &&
    !stopwords.has(w) &&
    !sentimentWords.has(w) &&
    !exclude.has(w)
  );
}

/** Words remembered per business (reviews repeat their vocabulary); bounded, then computed each time. */
const USABLE_MEMO_MAX = 200_000;

/** Candidate noun-phrase-like runs of usable words. */
function candidates(text: string, usable: (w: string) => boolean): Set<string> {
  const out = new Set<string>();
  for (const part of text.split(/[.!?;:,()"“”\n]+/)) {
    const words = tokenize(part).map((t) => t.norm);
    let run: string[] = [];
    const flush = () => {
      for (let n = 1; n <= MAX_WORDS; n++) {
        for (let i = 0; i + n <= run.length; i++) out.add(run.slice(i, i + n).join(" "));
      }
      run = [];
    };
    for (const w of words) {
      if (usable(w)) run.push(w);
      else flush();
    }
    flush();
  }
  return out;
}

export function createInsightParts(business: Pick<Business, "technicians" | "service_areas">): InsightPartsOf {
  const exclude = nameWords(business);
  const usable = boundedMemo((w: string) => usableWord(w, exclude), USABLE_MEMO_MAX);
  return (r) => {
    // A clause that names several aspects is the quote of each: its cues are found once.
    const cuesOf = boundedMemo(aspectCues, r.aspects.length);
    return {
      phrases: [...candidates([r.title ?? "", r.text].join("\n"), usable)],
      cues: r.aspects.map((a) => cuesOf(a.quote).flatMap((c) => (c.aspect === a.aspect ? [c.cue] : []))),
    };
  };
}
