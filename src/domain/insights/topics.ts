// Keyphrases: candidate noun-phrase-like runs (no stopwords, no sentiment words, no catalog names at the
// edges), ranked by TF-IDF over reviews with a bonus for multi-word phrases; subsumed phrases dropped.
import { aspectCues } from "../analysis/analyze-text.ts";
import sentimentLexicon from "../analysis/lexicon/sentiment.json" with { type: "json" };
import stopwordList from "../analysis/lexicon/stopwords.json" with { type: "json" };
import { labelOf } from "../analysis/sentiment.ts";
import { tokenize } from "../analysis/tokenize.ts";
import type { Aspect } from "../schemas/common.ts";
import type { Insights } from "../schemas/insights.ts";
import type { Business, ReviewRecord } from "../schemas/published.ts";
import { round } from "./aspect-insights.ts";

const stopwords = new Set(stopwordList.words);
const sentimentWords = new Set([
  ...Object.keys(sentimentLexicon.words),
  ...sentimentLexicon.negators,
  ...Object.keys(sentimentLexicon.intensifiers),
  ...Object.keys(sentimentLexicon.diminishers),
]);
const MAX_TOPICS = 25;
const MAX_WORDS = 3;

function candidates(text: string, exclude: Set<string>): Set<string> {
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
      const usable =
        /^\p{L}[\p{L}-]*$/u.test(w) &&
        !w.endsWith("ly") &&
        w.length >= 3 &&
        !stopwords.has(w) &&
        !sentimentWords.has(w) &&
        !exclude.has(w);
      if (usable) run.push(w);
      else flush();
    }
    flush();
  }
  return out;
}

export function topicInsights(business: Business, reviews: readonly ReviewRecord[]): Insights["topics"] {
  const exclude = new Set<string>();
  for (const e of [...business.technicians, ...business.service_areas]) {
    for (const n of [e.name, ...(e.aliases ?? [])]) for (const t of tokenize(n)) exclude.add(t.norm);
  }
  const docs = new Map<string, ReviewRecord[]>();
  for (const r of reviews) {
    for (const c of candidates([r.title ?? "", r.text].join("\n"), exclude)) {
      const list = docs.get(c);
      if (list) list.push(r);
      else docs.set(c, [r]);
    }
  }
  const n = reviews.length;
  const minDf = Math.max(3, Math.ceil(n * 0.005));
  const scored = [...docs]
    .map(([phrase, rs]) => ({ phrase, rs, words: phrase.split(" ").length }))
    .filter(({ rs, words }) => rs.length >= (words === 1 ? 2 * minDf : minDf) && rs.length < n * 0.5)
    .map(({ phrase, rs, words }) => ({ phrase, rs, score: rs.length * Math.log(n / rs.length) * words }))
    .sort((a, b) => b.score - a.score || (a.phrase < b.phrase ? -1 : 1));
  const chosen: typeof scored = [];
  for (const cand of scored) {
    if (chosen.length >= MAX_TOPICS) break;
    const overlaps = chosen.some(
      (c) =>
        (c.phrase.includes(cand.phrase) || cand.phrase.includes(c.phrase)) &&
        Math.min(c.rs.length, cand.rs.length) >= 0.6 * Math.max(c.rs.length, cand.rs.length),
    );
    if (!overlaps) chosen.push(cand);
  }
  return chosen.map(({ phrase, rs }) => {
    const score = round(rs.reduce((s, r) => s + r.sentiment.score, 0) / rs.length);
    const serviceCounts = new Map<string, number>();
    for (const r of rs) for (const s of r.mentions.services) serviceCounts.set(s, (serviceCounts.get(s) ?? 0) + 1);
    const aspects = new Set<Aspect>(aspectCues(phrase).map((c) => c.aspect));
    const aspectCounts = new Map<Aspect, number>();
    for (const r of rs) {
      for (const a of r.aspects)
        if (a.quote.toLowerCase().includes(phrase)) aspectCounts.set(a.aspect, (aspectCounts.get(a.aspect) ?? 0) + 1);
    }
    for (const [a, c] of aspectCounts) if (c >= rs.length / 3) aspects.add(a);
    return {
      phrase,
      reviews: rs.length,
      sentiment: { score, label: labelOf(score) },
      services: [...serviceCounts]
        .filter(([, c]) => c >= rs.length / 3)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([s]) => s),
      aspects: [...aspects].sort(),
      review_ids: rs.slice(0, 5).map((r) => r.id),
    };
  });
}
