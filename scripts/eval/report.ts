// Text tables for npm run eval: headline figures beside the previous engine's, per class, per aspect and
// confusion matrices.
import { type EvalReport, LABELS, POLARITIES, PREDICTED } from "./evaluate.ts";

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

export function formatReport(r: EvalReport, old: Summary | undefined, aim: boolean): string {
  const aimOf = (x: number, target: number) => (aim ? (x >= target ? "  (aim met)" : `  (aim ${target} missed)`) : "");
  const w = [44, 9, 9];
  const out = [
    row(["", "now", "before"], w),
    row(["review label accuracy", f3(r.accuracy), f3(old?.accuracy)], w),
    row(["review label macro-F1", f3(r.macroF1), f3(old?.macroF1)], w) + aimOf(r.macroF1, 0.85),
    row(["record label macro-F1 (3 labels, no mixed)", f3(r.recordMacroF1), f3(old?.recordMacroF1)], w),
    row(
      [
        `aspect polarity, all (${r.allAspects.correct}/${r.allAspects.total})`,
        f3(r.allAspects.accuracy),
        f3(old?.allAspects),
      ],
      w,
    ) + aimOf(r.allAspects.accuracy, 0.85),
    row(
      [
        `aspect polarity, mixed (${r.mixedAspects.correct}/${r.mixedAspects.total})`,
        f3(r.mixedAspects.accuracy),
        f3(old?.mixedAspects),
      ],
      w,
    ) + aimOf(r.mixedAspects.accuracy, 0.85),
    row(
      [
        `mention precision (tp ${r.mentions.tp}, fp ${r.mentions.fp})`,
        f3(r.mentions.precision),
        f3(old?.mentionPrecision),
      ],
      w,
    ) + aimOf(r.mentions.precision, 0.98),
    row([`mention recall (fn ${r.mentions.fn})`, f3(r.mentions.recall), f3(old?.mentionRecall)], w) +
      aimOf(r.mentions.recall, 0.95),
    "",
    "per class:",
    ...Object.entries(r.perClass).map(
      ([l, s]) =>
        `  ${l.padEnd(9)} precision ${s.precision.toFixed(2)} recall ${s.recall.toFixed(2)} F1 ${s.f1.toFixed(2)} (before ${f3(old?.perClassF1[l])}) support ${s.support}`,
    ),
    ...matrix(r.confusion, LABELS, LABELS).map((l) => `  ${l}`),
    "",
    "per aspect (polarity accuracy):",
  ];
  for (const [aspect, t] of Object.entries(r.perAspect)) {
    out.push(`  ${aspect}: ${t.correct}/${t.total} = ${f3(t.accuracy)} (before ${f3(old?.perAspect[aspect])})`);
    out.push(...matrix(t.confusion, POLARITIES, PREDICTED).map((l) => `    ${l}`));
  }
  return out.join("\n");
}
