// npm run eval:combiner: the label-combiner experiment (scripts/eval/label-combiner.ts). For each setting of a
// small grid, leave-one-set-out cross-validation over the development sets prints each held-out set's review
// label macro-F1 under the rules and under a combiner trained on the other sets, and the mean over the sets.
import { crossValidate, loadExamples, type TrainingConfig } from "./eval/label-combiner.ts";

const GRID: TrainingConfig[] = [0.001, 0.01, 0.1].flatMap((lambda) =>
  [false, true].map((balanced) => ({ lambda, balanced, without: [] })),
);
const TEXT_CUES = ["rating_high", "rating_low", "question", "hedge", "length"];
const RULE_LABEL = ["rule_positive", "rule_negative", "rule_mixed", "score"];
GRID.push({ lambda: 0.01, balanced: true, without: TEXT_CUES }, { lambda: 0.01, balanced: true, without: RULE_LABEL });

const examples = await loadExamples();
const f3 = (x: number) => x.toFixed(3);
for (const config of GRID) {
  const folds = crossValidate(examples, config);
  const mean = (k: "rules" | "model") => folds.reduce((s, f) => s + f[k], 0) / folds.length;
  const name = `lambda ${config.lambda}${config.balanced ? ", balanced" : ""}${config.without.length ? `, without ${config.without.join(" ")}` : ""}`;
  console.log(`\n${name}`);
  for (const f of folds)
    console.log(
      `  ${f.set.padEnd(10)} ${String(f.items).padStart(4)} items  rules ${f3(f.rules)}  combiner ${f3(f.model)}`,
    );
  console.log(`  mean over sets        rules ${f3(mean("rules"))}  combiner ${f3(mean("model"))}`);
}
