// Text tables for npm run eval: headline figures beside the previous engine's, per class, per aspect and
// confusion matrices.
import { type EvalReport, LABELS, POLARITIES, PREDICTED } from "./evaluate.ts";

type Matrix = EvalReport["confusion"];

/** The figures kept in eval/baseline.json for comparison. */
export interface Summary {
  items: number;
  accuracy: number;
  macroF1: number;
  recordMacroF1?: number;
  allAspects: number;
  mixedAspects: number;
  mentionPrecision: number;
  mentionRecall: number;
  perClassF1: Record<string, number>;
  perAspect: Record<string, number>;
}

export function summarise(r: EvalReport): Summary {
  return {
    items: r.items,
    accuracy: r.accuracy,
    macroF1: r.macroF1,
    recordMacroF1: r.recordMacroF1,
    allAspects: r.allAspects.accuracy,
    mixedAspects: r.mixedAspects.accuracy,
    mentionPrecision: r.mentions.precision,
    mentionRecall: r.mentions.recall,
    perClassF1: Object.fromEntries(Object.entries(r.perClass).map(([k, v]) => [k, v.f1])),
    perAspect: Object.fromEntries(Object.entries(r.perAspect).map(([k, v]) => [k, v.accuracy])),
  };
}

const f3 = (x: number | undefined) => (x === undefined ? "  -  " : x.toFixed(3));
const row = (cells: (string | number)[], widths: number[]) =>
  cells.map((c, i) => String(c).padStart(widths[i] ?? 8)).join(" ");

function matrix(m: Record<string, Record<string, number>>, rows: readonly string[], cols: readonly string[]): string[] {
  const widths = [16, ...cols.map((c) => Math.max(8, c.length))];
  const used = rows.filter((r) => m[r]);
  return [
    row(["gold \\ predicted", ...cols], widths),
    ...used.map((r) => row([r, ...cols.map((c) => m[r]?.[c] ?? 0)], widths)),
  ];
}

/** An earlier engine's figures on the set being reported, printed in a column of their own. */
export interface Column {
  /** Column heading, at most 9 characters ("before", "5f2ee1a"). */
  name: string;
  summary: Summary | undefined;
}

export function formatReport(r: EvalReport, old: readonly Column[], aim: boolean): string {
  const aimOf = (x: number, target: number) => (aim ? (x >= target ? "  (aim met)" : `  (aim ${target} missed)`) : "");
  const w = [44, 9, ...old.map(() => 9)];
  const line = (label: string, now: number | undefined, pick: (s: Summary) => number | undefined) =>
    row([label, f3(now), ...old.map((c) => f3(c.summary && pick(c.summary)))], w);
  const beside = (pick: (s: Summary) => number | undefined) =>
    old.map((c) => `${c.name} ${f3(c.summary && pick(c.summary))}`).join(", ");
  const out = [
    row(["", "now", ...old.map((c) => c.name)], w),
    line("review label accuracy", r.accuracy, (s) => s.accuracy),
    line("review label macro-F1", r.macroF1, (s) => s.macroF1) + aimOf(r.macroF1, 0.85),
    line("record label macro-F1 (3 labels, no mixed)", r.recordMacroF1, (s) => s.recordMacroF1),
    line(
      `aspect polarity, all (${r.allAspects.correct}/${r.allAspects.total})`,
      r.allAspects.accuracy,
      (s) => s.allAspects,
    ) + aimOf(r.allAspects.accuracy, 0.85),
    line(
      `aspect polarity, mixed (${r.mixedAspects.correct}/${r.mixedAspects.total})`,
      r.mixedAspects.accuracy,
      (s) => s.mixedAspects,
    ) + aimOf(r.mixedAspects.accuracy, 0.85),
    line(
      `mention precision (tp ${r.mentions.tp}, fp ${r.mentions.fp})`,
      r.mentions.precision,
      (s) => s.mentionPrecision,
    ) + aimOf(r.mentions.precision, 0.98),
    line(`mention recall (fn ${r.mentions.fn})`, r.mentions.recall, (s) => s.mentionRecall) +
      aimOf(r.mentions.recall, 0.95),
    "",
    "per class:",
    ...Object.entries(r.perClass).map(
      ([l, s]) =>
        `  ${l.padEnd(9)} precision ${s.precision.toFixed(2)} recall ${s.recall.toFixed(2)} F1 ${s.f1.toFixed(2)} (${beside((o) => o.perClassF1[l])}) support ${s.support}`,
    ),
    ...matrix(r.confusion, LABELS, LABELS).map((l) => `  ${l}`),
    "",
    "per aspect (polarity accuracy):",
  ];
  for (const [aspect, t] of Object.entries(r.perAspect)) {
    out.push(`  ${aspect}: ${t.correct}/${t.total} = ${f3(t.accuracy)} (${beside((o) => o.perAspect[aspect])})`);
    out.push(...matrix(t.confusion, POLARITIES, PREDICTED).map((l) => `    ${l}`));
  }
  out.push("", "chips shown (contradicting: the opposite of the writer's polarity; recall: labelled aspects shown):");
  const all: Matrix = {};
  for (const t of Object.values(r.perAspect))
    for (const [gold, row] of Object.entries(t.confusion)) {
      const into = all[gold] ?? {};
      all[gold] = into;
      for (const [got, n] of Object.entries(row)) into[got] = (into[got] ?? 0) + n;
    }
  for (const [name, m] of [
    ["all", all] as const,
    ...Object.entries(r.perAspect).map(([k, t]) => [k, t.confusion] as const),
  ]) {
    const { contradicting, recall } = chipRates(m);
    const aims =
      aim && name === "all"
        ? `  (aims: contradicting at most ${CHIP_AIMS.contradicting} ${contradicting <= CHIP_AIMS.contradicting ? "met" : "missed"}, recall at least ${CHIP_AIMS.recall} ${recall >= CHIP_AIMS.recall ? "met" : "missed"})`
        : "";
    out.push(`  ${name}: ${chipFigures(m)}${aims}`);
  }
  return out.join("\n");
}

/** Shown chips: at most this share contradicts the writer, while at least this share of labelled aspects is shown. */
export const CHIP_AIMS = { contradicting: 0.01, recall: 0.8 } as const;

/** The counts behind the chip figures: labelled aspects, those shown, and shown ones contradicting the writer. */
function chipCounts(m: Matrix): { total: number; shown: number; contradicting: number } {
  const at = (gold: string, got: string) => m[gold]?.[got] ?? 0;
  let total = 0;
  let missing = 0;
  for (const gold of POLARITIES) for (const got of PREDICTED) total += at(gold, got);
  for (const gold of POLARITIES) missing += at(gold, "missing");
  return { total, shown: total - missing, contradicting: at("positive", "negative") + at("negative", "positive") };
}

function chipRates(m: Matrix): { contradicting: number; recall: number } {
  const { total, shown, contradicting } = chipCounts(m);
  return { contradicting: shown ? contradicting / shown : 0, recall: total ? shown / total : 0 };
}

/** Shown chips that contradict the writer (positive for negative or the reverse), and the share of labelled aspects shown. */
function chipFigures(m: Matrix): string {
  const { total, shown, contradicting } = chipCounts(m);
  const rates = chipRates(m);
  return `contradicting ${contradicting}/${shown} = ${f3(rates.contradicting)}, recall ${shown}/${total} = ${f3(rates.recall)}`;
}
