// npm run eval [-- --dev | --sets a,b,c] [-- --errors] [-- --json]: scores the analysis on the labelled sets in eval/
// (see eval/README.md) beside the figures of earlier engines (eval/baseline.json), and measures
// analysis throughput. A held-out set whose sha256 no longer matches the committed one gets no figure.
import { analyzeByRules, analyzeText } from "../src/analyze-text.ts";
import { aspectLayer } from "../src/aspect-layer.ts";
import { nameWords } from "../src/mentions.ts";
import { reviewModel } from "../src/review-model.ts";
import { loadEvalBusiness, readEvalFile } from "./eval/eval-files.ts";
import { annotatorPredictor, evaluate, heldOutCheck, parseJsonl, sha256 } from "./eval/evaluate.ts";
import { formatReport, type Summary, summarise } from "./eval/report.ts";
import { AGREEMENT, chooseSets, type EvalSet, HELD_OUT, SPENT } from "./eval/sets.ts";
import { loadItems } from "./eval/text-model.ts";
import { compareThroughput } from "./eval/throughput.ts";

const args = process.argv.slice(2);
let sets: EvalSet[];
try {
  sets = chooseSets(args);
} catch (e) {
  console.error(`npm run eval: ${(e as Error).message}`);
  process.exit(2);
}
const business = await loadEvalBusiness();
// Earlier engines' figures (eval/baseline.json): the first engine measured in column "before", then each later
// engine in a column of its own (laterEngines[].column).
interface Figures {
  engine?: string;
  sets?: Record<string, Summary>;
}
const baseline = JSON.parse(await readEvalFile("baseline.json").catch(() => "{}")) as Figures & {
  laterEngines?: (Figures & { column: string })[];
};
const earlier = [{ ...baseline, column: "before" }, ...(baseline.laterEngines ?? [])];

const summaries: Record<string, Summary> = {};
const agreement: Record<string, Summary> = {};
for (const set of sets) {
  const file = `eval/${set}.jsonl`;
  const text = await readEvalFile(`${set}.jsonl`);
  console.log(`\n=== ${file} sha256 ${sha256(text)}`);
  const pinned = HELD_OUT[set];
  if (pinned) {
    const { ok, committed } = heldOutCheck(text, await readEvalFile(pinned));
    if (!ok) {
      console.log(`REFUSED: ${file} no longer matches eval/${pinned} (${committed}); no held-out figure is reported.`);
      process.exitCode = 1;
      continue;
    }
    const spent = SPENT[set];
    console.log(
      spent
        ? `no longer held out: ${spent}; matches eval/${pinned}, reported as a development set (no aims)`
        : `held-out: matches eval/${pinned}, committed before any tuning`,
    );
  }
  const learned = reviewModel().files[set];
  if (learned !== undefined)
    console.log(
      learned === sha256(text)
        ? `IN-SAMPLE: the review-label model (${reviewModel().version}) was trained on this file (its sha256 is in the model's list): the review-label figures below are not held-out figures; npm run eval:model's cross-validation is the estimate`
        : `the review-label model (${reviewModel().version}) was trained on an earlier version of this file (sha256 ${learned}): the review-label figures below are partly in-sample`,
    );
  const layer = aspectLayer(reviewModel());
  const layerLearned = layer.files[set];
  if (layerLearned !== undefined)
    console.log(
      layerLearned === sha256(text)
        ? `IN-SAMPLE: the aspect layer (${layer.version}) was trained on this file: the aspect figures below are not held-out figures; npm run eval:aspects's cross-validation is the estimate`
        : `the aspect layer (${layer.version}) was trained on an earlier version of this file (sha256 ${layerLearned}): the aspect figures below are partly in-sample`,
    );
  const items = parseJsonl(text, file);
  const report = evaluate(items, business);
  summaries[set] = summarise(report);
  console.log(
    `${report.items} items; ${earlier.map((e) => `"${e.column}" = ${e.engine ?? "no baseline"}`).join("; ")}`,
  );
  const columns = earlier.map((e) => ({ name: e.column, summary: e.sets?.[set] }));
  console.log(
    formatReport(
      report,
      columns,
      Boolean(pinned) && !SPENT[set] && learned === undefined && layerLearned === undefined,
    ),
  );
  const second = AGREEMENT[set];
  if (second) {
    const a = evaluate(items, business, annotatorPredictor(await readEvalFile(second), `eval/${second}`, items.length));
    agreement[set] = summarise(a);
    const f = (x: number) => x.toFixed(3);
    console.log(
      `agreement: a second annotator (eval/${second}) against the writer: review label macro-F1 ${f(a.macroF1)}, accuracy ${f(a.accuracy)}, aspects ${f(a.allAspects.accuracy)} (${a.allAspects.correct}/${a.allAspects.total}), in reviews mixing polarities ${f(a.mixedAspects.accuracy)}, mentions ${f(a.mentions.precision)} / ${f(a.mentions.recall)}`,
    );
  }
  if (args.includes("--errors"))
    for (const e of report.errors) console.log(`  ✗ ${e.text}\n      expected ${e.expected}, got ${e.got}`);
}

// The texts of every labelled file the models learn from: real reviews' lengths and mess, the same on every run.
const corpus = (await loadItems()).map((i) => i.text);
// The engine and the rules alone in alternated rounds (the best round of each), so that both see the same load
// and neither pays alone for what ran before it.
const speed = compareThroughput(corpus, nameWords(business), analyzeByRules, analyzeText, 3, 1);
const rate = speed.b;
const thousands = (x: number) => Math.round(x).toLocaleString("en");
console.log(
  `\nanalysis throughput: ${thousands(rate)} reviews/s on one core (aim 10,000); the rules alone ${thousands(speed.a)} (best of 3 alternated rounds each)`,
);
if (args.includes("--json"))
  console.log(JSON.stringify({ sets: summaries, agreement, reviewsPerSecond: Math.round(rate) }));
