// npm run eval [-- --dev] [-- --errors]: scores the analysis on the frozen set (or the development set).
import { readFile } from "node:fs/promises";
import { BusinessContent } from "../src/domain/schemas/content.ts";
import { evaluate, parseJsonl } from "./eval/evaluate.ts";

// frozen: the first labelled set, seen once before tuning; holdout: written later and never tuned on;
// dev: the only set the lexicons were tuned against.
const sets = process.argv.includes("--dev") ? ["dev"] : ["frozen", "holdout"];
const business = BusinessContent.parse(
  JSON.parse(await readFile(new URL("../content/business.json", import.meta.url), "utf8")),
);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
for (const set of sets) {
  const report = evaluate(
    parseJsonl(await readFile(new URL(`../eval/${set}.jsonl`, import.meta.url), "utf8")),
    business,
  );
  console.log(`set: eval/${set}.jsonl (${report.items} items)`);
  console.log(`three-class accuracy: ${pct(report.accuracy)}`);
  console.log(`macro-F1: ${report.macroF1.toFixed(3)}`);
  for (const [label, s] of Object.entries(report.perClass)) {
    console.log(
      `  ${label.padEnd(8)} precision ${s.precision.toFixed(2)} recall ${s.recall.toFixed(2)} F1 ${s.f1.toFixed(2)}`,
    );
  }
  console.log(
    `aspect polarity on mixed-aspect clauses: ${pct(report.mixedAspects.accuracy)} (${report.mixedAspects.correct}/${report.mixedAspects.total})`,
  );
  console.log(
    `aspect polarity, all labelled aspects: ${pct(report.allAspects.accuracy)} (${report.allAspects.correct}/${report.allAspects.total})`,
  );
  console.log(
    `technician mentions: precision ${report.mentions.precision.toFixed(3)}, recall ${report.mentions.recall.toFixed(3)}`,
  );
  if (process.argv.includes("--errors"))
    for (const e of report.errors) console.log(`  ✗ ${e.text}\n      expected ${e.expected}, got ${e.got}`);
}
