// npm run eval:model:score -- --sets a,b: the engine's review-label model (src/model/
// review-label.json, written by npm run eval:model -- --write=…) against the rules' own labels on the sets named,
// with npm run eval's held-out hash check: review-label macro-F1, accuracy and per-class F1 of each. A set the
// model was trained on gets an in-sample figure and is marked so.
import { ruleAnalysis } from "../src/analyze-text.ts";
import { nameWords } from "../src/mentions.ts";
import { modelVerdict, reviewModel } from "../src/review-model.ts";
import { loadEvalBusiness, readEvalFile } from "./eval/eval-files.ts";
import { heldOutCheck, LABELS, parseJsonl } from "./eval/evaluate.ts";
import { chooseSets, HELD_OUT } from "./eval/sets.ts";
import { accuracy, classF1, macroF1 } from "./eval/text-model.ts";

const neutral = nameWords(await loadEvalBusiness());
const f3 = (x: number) => x.toFixed(3);
console.log(`${reviewModel().version} (${JSON.stringify(reviewModel().features)})`);
for (const set of chooseSets(process.argv.slice(2))) {
  const text = await readEvalFile(`${set}.jsonl`);
  const pinned = HELD_OUT[set];
  if (pinned && !heldOutCheck(text, await readEvalFile(pinned)).ok) {
    console.log(`REFUSED: eval/${set}.jsonl no longer matches eval/${pinned}`);
    process.exitCode = 1;
    continue;
  }
  const items = parseJsonl(text, `eval/${set}.jsonl`);
  const gold: number[] = [];
  const rules: number[] = [];
  const model: number[] = [];
  for (const item of items) {
    const analysis = ruleAnalysis([item.text], neutral);
    gold.push(LABELS.indexOf(item.label));
    rules.push(LABELS.indexOf(analysis.rules.overall));
    model.push(LABELS.indexOf(modelVerdict(reviewModel(), analysis.features, [item.text], neutral).overall));
  }
  const seen = set in reviewModel().files ? " (IN-SAMPLE: the model was trained on it)" : "";
  console.log(`\n${set} (${items.length} items)${seen}`);
  for (const [name, p] of [
    ["rules", rules],
    ["model", model],
  ] as const)
    console.log(
      `  ${name}  macro-F1 ${f3(macroF1(gold, p))}  accuracy ${f3(accuracy(gold, p))}  ${LABELS.map((l, c) => `${l} ${f3(classF1(gold, p, c))}`).join("  ")}`,
    );
}
