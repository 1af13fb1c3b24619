// Scores the analysis module against a labelled JSONL set: the review label (positive, neutral, negative,
// mixed), aspect polarity (all labelled aspects and those in clauses that mix polarities) and technician
// mentions, each with the counts behind the figure.

import { hash } from "node:crypto";
import { analyzeText } from "../../src/analyze-text.ts";
import { buildMatcher, findMentions, nameWords } from "../../src/mentions.ts";
import { REVIEW_LABELS } from "../../src/review-model.ts";
import type { Catalog, Sentiment } from "../../src/vocabulary.ts";

export const LABELS = REVIEW_LABELS;
export type Label = (typeof LABELS)[number];
export const POLARITIES = ["positive", "neutral", "negative"] as const;
/** Predicted polarity of a labelled aspect, or `missing` when the analysis did not find the aspect. */
export const PREDICTED = [...POLARITIES, "missing"] as const;

export interface LabelledItem {
  text: string;
  label: Label;
  aspects?: Record<string, Sentiment>;
  technicians?: string[];
}

type Matrix = Record<string, Record<string, number>>;
interface Score {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}
interface Tally {
  total: number;
  correct: number;
  accuracy: number;
}

export interface EvalReport {
  items: number;
  accuracy: number;
  /** Over the labels present in the set's gold labels. */
  macroF1: number;
  /** The record's three-way label (what search filters see) on the items not labelled mixed. */
  recordMacroF1: number;
  perClass: Partial<Record<Label, Score>>;
  confusion: Matrix;
  mixedAspects: Tally;
  allAspects: Tally;
  perAspect: Record<string, Tally & { confusion: Matrix }>;
  mentions: { precision: number; recall: number; tp: number; fp: number; fn: number };
  errors: { text: string; expected: string; got: string }[];
}

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
const tally = (total: number, correct: number): Tally => ({ total, correct, accuracy: ratio(correct, total) });
const bump = (m: Matrix, row: string, col: string) => {
  m[row] ??= {};
  m[row][col] = (m[row][col] ?? 0) + 1;
};

export const sha256 = (text: string): string => hash("sha256", text, "hex");

/** Precision, recall and F1 of each label that has gold items in `confusion` (rows gold, columns predicted). */
function scores(confusion: Matrix): Partial<Record<Label, Score>> {
  const out: Partial<Record<Label, Score>> = {};
  for (const l of LABELS.filter((x) => confusion[x])) {
    const tp = confusion[l]?.[l] ?? 0;
    const predicted = LABELS.reduce((s, g) => s + (confusion[g]?.[l] ?? 0), 0);
    const support = LABELS.reduce((s, p) => s + (confusion[l]?.[p] ?? 0), 0);
    const precision = ratio(tp, predicted);
    const recall = ratio(tp, support);
    out[l] = {
      precision,
      recall,
      f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
      support,
    };
  }
  return out;
}

const macro = (s: Partial<Record<Label, Score>>) => {
  const xs = Object.values(s);
  return xs.reduce((t, c) => t + c.f1, 0) / xs.length;
};

/** Macro-F1 of `predicted` against `gold`, over the labels that have gold items (the figure evaluate reports). */
export function macroF1Of(gold: readonly Label[], predicted: readonly Label[]): number {
  const confusion: Matrix = {};
  for (let i = 0; i < gold.length; i++) bump(confusion, gold[i], predicted[i]);
  return macro(scores(confusion));
}

/** Whether a held-out set is still the file whose hash was committed (`pinned`: a sha256sum line). */
export function heldOutCheck(text: string, pinned: string): { sha: string; committed: string; ok: boolean } {
  const sha = sha256(text);
  const committed = pinned.trim().split(/\s+/)[0] ?? "";
  return { sha, committed, ok: /^[0-9a-f]{64}$/.test(committed) && committed === sha };
}

/** Parses a JSONL set; a bad line is reported with its number. */
export function parseJsonl(text: string, file: string): LabelledItem[] {
  const out: LabelledItem[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
    let item: LabelledItem;
    try {
      item = JSON.parse(line) as LabelledItem;
    } catch (e) {
      throw new Error(`${file}:${i + 1}: not JSON (${(e as Error).message})`);
    }
    if (typeof item.text !== "string" || !(LABELS as readonly string[]).includes(item.label))
      throw new Error(`${file}:${i + 1}: needs "text" and a "label" among ${LABELS.join(", ")}`);
    out.push(item);
  }
  return out;
}

/** What is scored against an item's labels: the engine's findings, or a second annotator's labels. */
export interface Prediction {
  overall: Label;
  /** The record's three-way label; undefined leaves the item out of the record figure. */
  record: Sentiment | undefined;
  aspects: readonly { aspect: string; polarity: Sentiment }[];
  technicians: readonly string[];
  /** Shown beside a missed label by `--errors` (the engine's score). */
  detail?: string;
}
export type Predictor = (item: LabelledItem, index: number) => Prediction;

/** The analysis engine as a predictor. */
export function enginePredictor(business: Catalog): Predictor {
  const matcher = buildMatcher(business);
  const neutral = nameWords(business);
  return (item) => {
    const a = analyzeText([item.text], neutral);
    return {
      overall: a.overall,
      record: a.sentiment.label,
      aspects: a.aspects,
      technicians: findMentions(matcher, item.text).technicians,
      detail: String(a.sentiment.score),
    };
  };
}

/**
 * A second annotator's labels of the same set (eval/agreement/, one line per item in the set's order, `n` its line
 * number) as a predictor: scoring it against the writer's labels measures how far two careful readers agree.
 */
export function annotatorPredictor(text: string, file: string, items: number): Predictor {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  if (lines.length !== items) throw new Error(`${file}: ${lines.length} lines for a set of ${items} items`);
  const labels = lines.map((line, i) => {
    const x = JSON.parse(line) as Partial<LabelledItem> & { n?: number };
    if (x.n !== i + 1 || !(LABELS as readonly string[]).includes(x.label ?? ""))
      throw new Error(`${file}:${i + 1}: needs "n": ${i + 1} and a "label" among ${LABELS.join(", ")}`);
    return x as LabelledItem;
  });
  return (_item, i) => {
    const x = labels[i] as LabelledItem;
    return {
      overall: x.label,
      record: x.label === "mixed" ? undefined : x.label,
      aspects: Object.entries(x.aspects ?? {}).map(([aspect, polarity]) => ({ aspect, polarity })),
      technicians: x.technicians ?? [],
    };
  };
}

export function evaluate(
  items: readonly LabelledItem[],
  business: Catalog,
  predict: Predictor = enginePredictor(business),
): EvalReport {
  const confusion: Matrix = {};
  const recordConfusion: Matrix = {};
  const errors: EvalReport["errors"] = [];
  const mixed = { total: 0, correct: 0 };
  const all = { total: 0, correct: 0 };
  const perAspect = new Map<string, { total: number; correct: number; confusion: Matrix }>();
  const m = { tp: 0, fp: 0, fn: 0 };
  let correct = 0;
  for (const [index, item] of items.entries()) {
    const a = predict(item, index);
    const got: Label = a.overall;
    bump(confusion, item.label, got);
    if (item.label !== "mixed" && a.record !== undefined) bump(recordConfusion, item.label, a.record);
    if (got === item.label) correct++;
    else errors.push({ text: item.text, expected: item.label, got: a.detail ? `${got} (${a.detail})` : got });
    const expectedAspects = Object.entries(item.aspects ?? {});
    const isMixed = new Set(expectedAspects.map(([, p]) => p)).size > 1;
    for (const [aspect, polarity] of expectedAspects) {
      const found = a.aspects.filter((x) => x.aspect === aspect);
      const predicted = found.some((x) => x.polarity === polarity) ? polarity : (found[0]?.polarity ?? "missing");
      const ok = predicted === polarity;
      const row = perAspect.get(aspect) ?? { total: 0, correct: 0, confusion: {} };
      row.total++;
      if (ok) row.correct++;
      bump(row.confusion, polarity, predicted);
      perAspect.set(aspect, row);
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
      const found = new Set(a.technicians);
      const want = new Set(item.technicians);
      for (const t of found) want.has(t) ? m.tp++ : m.fp++;
      for (const t of want) if (!found.has(t)) m.fn++;
      if ([...found].some((t) => !want.has(t)) || [...want].some((t) => !found.has(t)))
        errors.push({ text: item.text, expected: `technicians ${[...want]}`, got: `${[...found]}` });
    }
  }
  const perClass = scores(confusion);
  return {
    items: items.length,
    accuracy: correct / items.length,
    macroF1: macro(perClass),
    recordMacroF1: macro(scores(recordConfusion)),
    perClass,
    confusion,
    mixedAspects: tally(mixed.total, mixed.correct),
    allAspects: tally(all.total, all.correct),
    perAspect: Object.fromEntries(
      [...perAspect]
        .sort(([x], [y]) => (x < y ? -1 : 1))
        .map(([k, v]) => [k, { ...tally(v.total, v.correct), confusion: v.confusion }]),
    ),
    mentions: { ...m, precision: ratio(m.tp, m.tp + m.fp), recall: ratio(m.tp, m.tp + m.fn) },
    errors,
  };
}
