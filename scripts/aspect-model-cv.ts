// npm run eval:aspects: the aspect-model experiment (scripts/eval/aspect-model.ts). For each setting given (or the
// chosen one), leave-one-writer-out cross-validation prints each held-out file's aspect polarity accuracy (all
// labelled aspects, and those of reviews mixing polarities) and the precision of the aspects given, under the
// rules and under a model trained on the other files, then the means over every fold and over the untuned ones.
import { writeFile } from "node:fs/promises";
import { analyzeByRules } from "../src/domain/analysis/analyze-text.ts";
import { nameWords } from "../src/domain/analysis/mentions.ts";
import { aspectsWithModel, prepareAspectModel } from "./eval/aspect-features.ts";
import {
  type AspectFold,
  type AspectModelConfig,
  crossValidateAspects,
  loadAspectItems,
  trainAspectModel,
} from "./eval/aspect-model.ts";
import { loadEvalBusiness, readEvalFile } from "./eval/eval-files.ts";
import { sha256 } from "./eval/evaluate.ts";
import { TRAIN_SETS } from "./eval/text-model.ts";

// The setting chosen by the cross-validation (README, "Sentiment evaluation").
const BASE: AspectModelConfig = {
  bits: 18,
  bigrams: true,
  chars: false,
  negationScope: 3,
  text: true,
  quotes: true,
  sentences: true,
  add: false,
  drop: false,
  keepHedges: true,
  lambda: 1e-4,
  iterations: 200,
  tunedWeight: 0.3,
};
const arg = process.argv.find((a) => a.startsWith("--grid="));
// --grid='[{...}, ...]': settings to cross-validate, each over BASE; without it, BASE alone.
const GRID: AspectModelConfig[] = arg
  ? (JSON.parse(arg.slice("--grid=".length)) as Partial<AspectModelConfig>[]).map((g) => ({ ...BASE, ...g }))
  : [BASE];

const business = await loadEvalBusiness();
const items = await loadAspectItems(business);
const f3 = (x: number) => x.toFixed(3);
const signed = (x: number) => (x >= 0 ? "+" : "") + f3(x);
const untuned = new Set<string>(TRAIN_SETS);

// With --write or --speed, no cross-validation.
const crossValidating = !process.argv.some((a) => a.startsWith("--write=") || a === "--speed");
for (const config of crossValidating ? GRID : []) {
  const started = performance.now();
  const folds = crossValidateAspects(items, config, business);
  console.log(`\n${JSON.stringify(config)}`);
  console.log("  fold               items aspects   all: rules  model   mixed: rules  model   precision: rules  model");
  const line = (name: string, n: string, fs: readonly AspectFold[], tail = "") => {
    const mean = (pick: (f: AspectFold) => number) => fs.reduce((s, f) => s + pick(f), 0) / fs.length;
    const cells = [
      mean((f) => f.rules.all),
      mean((f) => f.model.all),
      mean((f) => f.rules.mixed),
      mean((f) => f.model.mixed),
      mean((f) => f.rules.precision),
      mean((f) => f.model.precision),
    ].map(f3);
    console.log(
      `  ${name.padEnd(18)} ${n.padStart(13)}   ${cells[0].padStart(10)}  ${cells[1]}   ${cells[2].padStart(12)}  ${cells[3]}   ${cells[4].padStart(16)}  ${cells[5]}${tail}`,
    );
  };
  for (const f of folds) line(f.set, `${f.items} ${f.rules.aspects}`, [f]);
  const wins = (fs: readonly AspectFold[]) => fs.filter((f) => f.model.all > f.rules.all).length;
  const meanDelta = (fs: readonly AspectFold[]) => fs.reduce((s, f) => s + f.model.all - f.rules.all, 0) / fs.length;
  const honest = folds.filter((f) => untuned.has(f.set));
  line(
    `mean, ${folds.length} folds`,
    "",
    folds,
    `   all ${signed(meanDelta(folds))}, better on ${wins(folds)}/${folds.length}`,
  );
  line(
    `mean, ${honest.length} untuned`,
    "",
    honest,
    `   all ${signed(meanDelta(honest))}, better on ${wins(honest)}/${honest.length}`,
  );
  console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

// --write=<file>: the model of the first setting trained on every file, written as JSON with its version and the
// sha256 of each file it learned from (the same files give the same bytes); prepareAspectModel reads it as it is.
const out = process.argv.find((a) => a.startsWith("--write="));
if (out) {
  const model = trainAspectModel(items, GRID[0]);
  const files = Object.fromEntries(
    await Promise.all(
      [...new Set(items.map((x) => x.set))].map(async (s) => [s, sha256(await readEvalFile(`${s}.jsonl`))]),
    ),
  );
  await writeFile(
    out.slice("--write=".length),
    `${JSON.stringify({ version: model.version, files, classes: model.classes, config: model.config, bias: model.bias, sparse: model.sparse })}\n`,
  );
  console.log(`\nwrote ${out.slice("--write=".length)} (${model.version}, ${items.length} items)`);
}

// --speed: reviews per CPU-second of the rules alone (analyzeByRules) and of the rules plus the model of the first
// setting (its features and scores, aspectsWithModel), over every item's text, and the model's cost per review.
if (process.argv.includes("--speed")) {
  const prepared = prepareAspectModel(trainAspectModel(items, GRID[0]));
  const texts = items.map((x) => x.item.text);
  const neutral = nameWords(business);
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
  const rules = rate((t) => analyzeByRules([t], neutral));
  const model = rate((t) => aspectsWithModel([t], analyzeByRules([t], neutral), prepared));
  console.log(
    `\nspeed: rules alone ${Math.round(rules)} reviews/s, rules + aspect model ${Math.round(model)} reviews/s (ratio ${(model / rules).toFixed(2)}; the model ${((1 / model - 1 / rules) * 1e6).toFixed(1)} µs per review)`,
  );
}
