// Scores the analysis module against a labelled JSONL set: three-class sentiment, aspect polarity on
// mixed-aspect clauses, technician mentions.
import { analyzeText } from "../../src/domain/analysis/analyze-text.ts";
import { buildMatcher, findMentions, nameWords } from "../../src/domain/analysis/mentions.ts";
import type { Sentiment } from "../../src/domain/schemas/common.ts";
import type { BusinessContent } from "../../src/domain/schemas/content.ts";

export interface LabelledItem {
  text: string;
  label: Sentiment;
  aspects?: Record<string, Sentiment>;
  technicians?: string[];
}

export interface EvalReport {
  items: number;
  accuracy: number;
  macroF1: number;
  perClass: Record<Sentiment, { precision: number; recall: number; f1: number }>;
  mixedAspects: { total: number; correct: number; accuracy: number };
  allAspects: { total: number; correct: number; accuracy: number };
  mentions: { precision: number; recall: number; tp: number; fp: number; fn: number };
  errors: { text: string; expected: string; got: string }[];
}

const LABELS: Sentiment[] = ["positive", "neutral", "negative"];
const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);

export function parseJsonl(text: string): LabelledItem[] {
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LabelledItem);
}

export function evaluate(items: LabelledItem[], business: BusinessContent): EvalReport {
  const matcher = buildMatcher(business);
  const neutral = nameWords(business);
  const confusion = new Map<string, number>();
  const errors: EvalReport["errors"] = [];
  const mixed = { total: 0, correct: 0 };
  const all = { total: 0, correct: 0 };
  const m = { tp: 0, fp: 0, fn: 0 };
  let correct = 0;
  for (const item of items) {
    const a = analyzeText([item.text], neutral);
    const got = a.sentiment.label;
    confusion.set(`${item.label}|${got}`, (confusion.get(`${item.label}|${got}`) ?? 0) + 1);
    if (got === item.label) correct++;
    else errors.push({ text: item.text, expected: item.label, got: `${got} (${a.sentiment.score})` });
    const expectedAspects = Object.entries(item.aspects ?? {});
    const isMixed = new Set(expectedAspects.map(([, p]) => p)).size > 1;
    for (const [aspect, polarity] of expectedAspects) {
      const ok = a.aspects.some((x) => x.aspect === aspect && x.polarity === polarity);
      all.total++;
      if (ok) all.correct++;
      if (isMixed) {
        mixed.total++;
        if (ok) mixed.correct++;
      }
      if (!ok)
        errors.push({
          text: item.text,
          expected: `${aspect} ${polarity}`,
          got: JSON.stringify(a.aspects.map((x) => `${x.aspect} ${x.polarity}`)),
        });
    }
    if (item.technicians) {
      const found = new Set(findMentions(matcher, item.text).technicians);
      const want = new Set(item.technicians);
      for (const t of found) want.has(t) ? m.tp++ : m.fp++;
      for (const t of want) if (!found.has(t)) m.fn++;
      if ([...found].some((t) => !want.has(t)) || [...want].some((t) => !found.has(t))) {
        errors.push({ text: item.text, expected: `technicians ${[...want]}`, got: `${[...found]}` });
      }
    }
  }
  const perClass = {} as EvalReport["perClass"];
  for (const l of LABELS) {
    const tp = confusion.get(`${l}|${l}`) ?? 0;
    const predicted = LABELS.reduce((s, e) => s + (confusion.get(`${e}|${l}`) ?? 0), 0);
    const actual = LABELS.reduce((s, g) => s + (confusion.get(`${l}|${g}`) ?? 0), 0);
    const precision = ratio(tp, predicted);
    const recall = ratio(tp, actual);
    perClass[l] = {
      precision,
      recall,
      f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    };
  }
  return {
    items: items.length,
    accuracy: correct / items.length,
    macroF1: LABELS.reduce((s, l) => s + perClass[l].f1, 0) / LABELS.length,
    perClass,
    mixedAspects: { ...mixed, accuracy: ratio(mixed.correct, mixed.total) },
    allAspects: { ...all, accuracy: ratio(all.correct, all.total) },
    mentions: { ...m, precision: ratio(m.tp, m.tp + m.fp), recall: ratio(m.tp, m.tp + m.fn) },
    errors,
  };
}
