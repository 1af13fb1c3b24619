// npm run eval:aspects: the engine's aspect layer (src/aspect-layer.ts, trained by
// scripts/eval/aspect-layer.ts). Leave-one-writer-out cross-validation (folds = files) prints, per held-out file,
// aspect polarity accuracy (all labelled aspects, and those of reviews mixing polarities) and the precision of
// the aspects given, under the rules and under the layer trained on the other files, at the presence thresholds
// chosen over the untuned files; then the means over every fold and over the untuned ones.
// `-- --grid='[{...}]'`: settings to compare (each over CHOSEN_LAYER). `-- --write`: cross-validate the chosen
// setting, then train on every file and write src/model/aspect-layer.json (the engine's).
import { writeFile } from "node:fs/promises";
import {
  CHOSEN_LAYER,
  choosePresence,
  crossValidateLayer,
  LAYER_FOLDS,
  type LayerConfig,
  type LayerFold,
  layerFileText,
  loadLayerItems,
  PRESENCE_GRID,
  UNTUNED_FOLDS,
} from "./eval/aspect-layer.ts";
import { gridOf, loadEvalBusiness } from "./eval/eval-files.ts";

const GRID: LayerConfig[] = gridOf(process.argv, CHOSEN_LAYER);
const foldsArg = process.argv.find((a) => a.startsWith("--folds="));
const folds = foldsArg ? (foldsArg.slice("--folds=".length).split(",") as typeof LAYER_FOLDS) : LAYER_FOLDS;
const write = process.argv.includes("--write");

const business = await loadEvalBusiness();
const started = performance.now();
const items = await loadLayerItems(business);
console.log(`${items.length} items read (${((performance.now() - started) / 1000).toFixed(1)} s)`);
const f3 = (x: number) => x.toFixed(3);
const mean = (fs: readonly LayerFold[], pick: (f: LayerFold) => number) =>
  fs.reduce((s, f) => s + pick(f), 0) / fs.length;

let record: Record<string, unknown> = {};
let chosen = 0;
for (const config of write ? GRID.slice(0, 1) : GRID) {
  const t0 = performance.now();
  const cv = crossValidateLayer(items, config, business, folds);
  chosen = choosePresence(cv);
  const p = Math.max(0, chosen);
  console.log(
    `\n${JSON.stringify(config)}: presence ${JSON.stringify(PRESENCE_GRID[p])}${chosen < 0 ? " (none keeps precision: first)" : ""}`,
  );
  console.log(
    "  fold           items aspects   all: rules  layer   mixed: rules  layer   precision: rules  layer   given: rules  layer",
  );
  const line = (name: string, n: string, fs: readonly LayerFold[]) => {
    const cells = [
      mean(fs, (f) => f.rules.all),
      mean(fs, (f) => f.layer[p].all),
      mean(fs, (f) => f.rules.mixed),
      mean(fs, (f) => f.layer[p].mixed),
      mean(fs, (f) => f.rules.precision),
      mean(fs, (f) => f.layer[p].precision),
    ].map(f3);
    const given = `${mean(fs, (f) => f.rules.given)
      .toFixed(0)
      .padStart(12)}  ${mean(fs, (f) => f.layer[p].given)
      .toFixed(0)
      .padStart(5)}`;
    console.log(
      `  ${name.padEnd(14)} ${n.padStart(13)}   ${cells[0].padStart(10)}  ${cells[1]}   ${cells[2].padStart(12)}  ${cells[3]}   ${cells[4].padStart(16)}  ${cells[5]}   ${given}`,
    );
  };
  for (const f of cv) line(f.set, `${f.items} ${f.rules.aspects}`, [f]);
  const honest = cv.filter((f) => UNTUNED_FOLDS.includes(f.set));
  line(`mean, ${cv.length} folds`, "", cv);
  line(`mean, ${honest.length} untuned`, "", honest);
  console.log("  untuned means per presence (found/added: all, mixed, precision):");
  for (const [i, pr] of PRESENCE_GRID.entries())
    console.log(
      `    ${pr.found}/${pr.added}: ${f3(mean(honest, (f) => f.layer[i].all))} ${f3(mean(honest, (f) => f.layer[i].mixed))} ${f3(mean(honest, (f) => f.layer[i].precision))}`,
    );
  console.log(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  record = {
    crossValidated: {
      untunedFolds: honest.map((f) => f.set),
      rules: {
        all: mean(honest, (f) => f.rules.all),
        mixed: mean(honest, (f) => f.rules.mixed),
        precision: mean(honest, (f) => f.rules.precision),
      },
      layer: {
        all: mean(honest, (f) => f.layer[p].all),
        mixed: mean(honest, (f) => f.layer[p].mixed),
        precision: mean(honest, (f) => f.layer[p].precision),
      },
    },
  };
}

if (write) {
  const out = new URL("../src/model/aspect-layer.json", import.meta.url);
  await writeFile(out, await layerFileText(items, GRID[0], PRESENCE_GRID[Math.max(0, chosen)], record));
  console.log(`\nwrote ${out.pathname}`);
}
