// npm run eval:model: the text-model experiment (scripts/eval/text-model.ts). For each setting given (or the
// default grid), leave-one-writer-out cross-validation prints each held-out file's review-label macro-F1 and
// accuracy under the rules and under a model trained on the other files, the means, and per-class F1 pooled.
import { writeFile } from "node:fs/promises";
import { analyzeText } from "../src/domain/analysis/analyze-text.ts";
import { nameWords } from "../src/domain/analysis/mentions.ts";
import { loadEvalBusiness, readEvalFile } from "./eval/eval-files.ts";
import { LABELS, sha256 } from "./eval/evaluate.ts";
import { labelFeaturesOf } from "./eval/label-features.ts";
import { textFeatures } from "./eval/text-features.ts";
import {
  accuracy,
  classF1,
  crossValidate,
  loadExamples,
  loadItems,
  MODEL_VERSION,
  type ModelConfig,
  macroF1,
  predict,
  predictStacked,
  type TextModel,
  train,
  trainStacked,
} from "./eval/text-model.ts";

// The setting chosen by the cross-validation (README, "Sentiment evaluation"): a stacked model whose combiner
// learns from every file, the files the rules were tuned on weighted 3 to 1 against the others.
const BASE: ModelConfig = {
  bits: 18,
  bigrams: true,
  chars: false,
  negationScope: 3,
  lambda: 1e-4,
  rules: "all",
  balanced: false,
  iterations: 200,
  stacked: true,
  tunedWeight: 3,
};
const arg = process.argv.find((a) => a.startsWith("--grid="));
// --grid='[{...}, ...]': settings to cross-validate, each over BASE; without it, BASE alone.
const GRID: ModelConfig[] = arg
  ? (JSON.parse(arg.slice("--grid=".length)) as Partial<ModelConfig>[]).map((g) => ({ ...BASE, ...g }))
  : [BASE];

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

// --write=<file>: the model of the first setting trained on every file, written as JSON with its version and the
// sha256 of each file it learned from (the same files give the same bytes).
const out = process.argv.find((a) => a.startsWith("--write="));
if (out) {
  const config = GRID[0];
  const examples = await loadExamples(config);
  const files = Object.fromEntries(
    await Promise.all(
      [...new Set(examples.map((e) => e.set))].map(async (s) => [s, sha256(await readEvalFile(`${s}.jsonl`))]),
    ),
  );
  const model = config.stacked ? trainStacked(examples, config) : train(examples, config);
  await writeFile(out.slice("--write=".length), `${JSON.stringify({ version: MODEL_VERSION, files, model })}\n`);
  console.log(`\nwrote ${out.slice("--write=".length)} (${MODEL_VERSION}, ${examples.length} items)`);
}

// --speed: reviews per CPU-second of the rules alone (analyzeText) and of the rules plus the model of the first
// setting (the rules' findings, their features, the hashed text and the model's scores), over every item's text.
if (process.argv.includes("--speed")) {
  const config = GRID[0];
  const examples = await loadExamples(config);
  const texts = (await loadItems()).map((i) => i.text);
  const neutral = nameWords(await loadEvalBusiness());
  const stacked = config.stacked ? trainStacked(examples, config) : undefined;
  const plain = stacked ? undefined : train(examples, config);
  const withModel = (t: string) => {
    const e = { dense: labelFeaturesOf([t], neutral), sparse: textFeatures([t], config) };
    return stacked ? predictStacked(stacked, { ...e, set: "dev", y: 0, rules: 0 }) : predict(plain as TextModel, e);
  };
  const rate = (f: (t: string) => unknown) => {
    for (const t of texts) f(t);
    const start = process.cpuUsage();
    let n = 0;
    const cpu = () => {
      const u = process.cpuUsage(start);
      return (u.user + u.system) / 1e6;
    };
    while (cpu() < 3) {
      for (const t of texts) f(t);
      n += texts.length;
    }
    return n / cpu();
  };
  const rules = rate((t) => analyzeText([t], neutral));
  const model = rate(withModel);
  console.log(
    `\nspeed: rules alone ${Math.round(rules)} reviews/s, rules + model ${Math.round(model)} reviews/s (ratio ${(model / rules).toFixed(2)})`,
  );
}
