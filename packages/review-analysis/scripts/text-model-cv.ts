// npm run eval:model: the text-model experiment (scripts/eval/text-model.ts). For each setting given (or the
// default grid), leave-one-writer-out cross-validation prints each held-out file's review-label macro-F1 and
// accuracy under the rules and under a model trained on the other files, the means, and per-class F1 pooled.
import { writeFile } from "node:fs/promises";
import { analyzeByRules, analyzeText } from "../src/analyze-text.ts";
import { nameWords } from "../src/mentions.ts";
import { gridOf, loadEvalBusiness } from "./eval/eval-files.ts";
import { LABELS } from "./eval/evaluate.ts";
import {
  accuracy,
  CHOSEN,
  classF1,
  crossValidate,
  engineModelText,
  loadExamples,
  loadItems,
  MODEL_VERSION,
  type ModelConfig,
  macroF1,
} from "./eval/text-model.ts";
import { compareThroughput } from "./eval/throughput.ts";

// --grid='[{...}, ...]': settings to cross-validate, each over CHOSEN; without it, CHOSEN alone.
const GRID: ModelConfig[] = gridOf(process.argv, CHOSEN);

const f3 = (x: number) => x.toFixed(3);
const cache = new Map<string, Awaited<ReturnType<typeof loadExamples>>>();
// With --write or --speed, no cross-validation.
const crossValidating = !process.argv.some((a) => a.startsWith("--write=") || a === "--speed");
for (const config of crossValidating ? GRID : []) {
  const key = `${config.bits} ${config.bigrams} ${config.chars} ${config.negationScope}`;
  const examples = cache.get(key) ?? (await loadExamples(config));
  cache.set(key, examples);
  const started = performance.now();
  const folds = crossValidate(examples, config);
  console.log(`\n${JSON.stringify(config)}`);
  console.log("  fold               items  macro-F1 rules  model   delta   accuracy rules  model");
  let wins = 0;
  for (const f of folds) {
    const r = macroF1(f.gold, f.rules);
    const m = macroF1(f.gold, f.model);
    if (m > r) wins++;
    console.log(
      `  ${f.set.padEnd(18)} ${String(f.items).padStart(5)}  ${f3(r).padStart(14)}  ${f3(m)}  ${(m - r >= 0 ? "+" : "") + f3(m - r)}  ${f3(accuracy(f.gold, f.rules)).padStart(14)}  ${f3(accuracy(f.gold, f.model))}`,
    );
  }
  const mean = (pick: (f: (typeof folds)[number]) => number) => folds.reduce((s, f) => s + pick(f), 0) / folds.length;
  const mr = mean((f) => macroF1(f.gold, f.rules));
  const mm = mean((f) => macroF1(f.gold, f.model));
  console.log(
    `  mean over ${folds.length} folds          ${f3(mr).padStart(14)}  ${f3(mm)}  ${(mm - mr >= 0 ? "+" : "") + f3(mm - mr)}  ${f3(mean((f) => accuracy(f.gold, f.rules))).padStart(14)}  ${f3(mean((f) => accuracy(f.gold, f.model)))}   model better on ${wins}/${folds.length}`,
  );
  const gold = folds.flatMap((f) => f.gold);
  const ruled = folds.flatMap((f) => f.rules);
  const model = folds.flatMap((f) => f.model);
  console.log(
    `  per-class F1, pooled: ${LABELS.map((l, c) => `${l} ${f3(classF1(gold, ruled, c))} -> ${f3(classF1(gold, model, c))}`).join(", ")}`,
  );
  console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

// --write=<file>: the model of the first setting (stacked) trained on every file, in the engine's form
// (src/model/review-label.json is the engine's) with its version and the sha256 of each file it
// learned from (the same files give the same bytes).
const out = process.argv.find((a) => a.startsWith("--write="));
if (out) {
  const { text, items } = await engineModelText(GRID[0]);
  await writeFile(out.slice("--write=".length), text);
  console.log(`\nwrote ${out.slice("--write=".length)} (${MODEL_VERSION}, ${items} items)`);
}

// --speed: reviews per CPU-second of the engine's analysis with the rules' labels only (analyzeByRules) and with
// the model's (analyzeText: the same rules pass, then the model), over every training item's text, alternated in
// rounds of a CPU-second so that both see the same load: the best round of each, and each round's ratio.
if (process.argv.includes("--speed")) {
  const texts = (await loadItems()).map((i) => i.text);
  const { a, b, ratios } = compareThroughput(texts, nameWords(await loadEvalBusiness()), analyzeByRules, analyzeText);
  console.log(
    `\nspeed: rules alone ${Math.round(a)} reviews/s, rules + model ${Math.round(b)} reviews/s (best of 5 alternated rounds; ratio per round ${ratios.map((x) => x.toFixed(2)).join(" ")}, median ${ratios[2].toFixed(2)})`,
  );
}
