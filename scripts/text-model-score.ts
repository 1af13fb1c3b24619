// npm run eval:model:score -- --sets a,b: the committed text model (eval/model/text-model.json, written by
// npm run eval:model -- --write=…) against the rules on the sets named, with npm run eval's held-out hash check:
// review-label macro-F1, accuracy and per-class F1 of each. A set the model was trained on gets an in-sample
// figure and is marked so; the engine does not read the model.
import { readFile } from "node:fs/promises";
import { nameWords } from "../src/domain/analysis/mentions.ts";
import { loadEvalBusiness, readEvalFile } from "./eval/eval-files.ts";
import { heldOutCheck, LABELS, parseJsonl } from "./eval/evaluate.ts";
import { rulesLabel } from "./eval/label-combiner.ts";
import { labelFeaturesOf } from "./eval/label-features.ts";
import { chooseSets, HELD_OUT } from "./eval/sets.ts";
import { textFeatures } from "./eval/text-features.ts";
import {
  accuracy,
  classF1,
  type Example,
  macroF1,
  predict,
  predictStacked,
  type StackedModel,
  type TextModel,
} from "./eval/text-model.ts";

const MODEL_FILE = new URL("../eval/model/text-model.json", import.meta.url);
const file = JSON.parse(await readFile(MODEL_FILE, "utf8")) as {
  version: string;
  files: Record<string, string>;
  model: TextModel | StackedModel;
};
const stacked = "combiner" in file.model ? file.model : undefined;
const config = stacked ? stacked.text.config : (file.model as TextModel).config;
const neutral = nameWords(await loadEvalBusiness());
const f3 = (x: number) => x.toFixed(3);
console.log(`${file.version} (${stacked ? "stacked" : "joint"}; ${JSON.stringify(config)})`);
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
    const e: Example = {
      set: "dev",
      dense: labelFeaturesOf([item.text], neutral),
      sparse: textFeatures([item.text], config),
      y: LABELS.indexOf(item.label),
      rules: 0,
    };
    gold.push(e.y);
    rules.push(rulesLabel(e.dense));
    model.push(stacked ? predictStacked(stacked, e) : predict(file.model as TextModel, e));
  }
  const seen = set in file.files ? " (IN-SAMPLE: the model was trained on it)" : "";
  console.log(`\n${set} (${items.length} items)${seen}`);
  for (const [name, p] of [
    ["rules", rules],
    ["model", model],
  ] as const)
    console.log(
      `  ${name}  macro-F1 ${f3(macroF1(gold, p))}  accuracy ${f3(accuracy(gold, p))}  ${LABELS.map((l, c) => `${l} ${f3(classF1(gold, p, c))}`).join("  ")}`,
    );
}
