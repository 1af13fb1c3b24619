// npm run eval:chips: which chips a reader is shown, judged on writers the choice never learned from. Reads every
// labelled file with models that did not learn from it (scripts/eval/chip-readings.ts), then cross-validates the
// chip verifier leave-one-writer-out (scripts/eval/chip-verifier.ts) and prints, per writer's file, per aspect and
// pooled, the share of shown chips that contradict the writer and the recall of labelled aspects under:
// the hand-written chip rules alone; the clause rules and the aspect layer agreeing; both; the verifier; and the
// verifier's trade-off curve (its out-of-writer scores under one threshold for all).
// `-- --cache=FILE`: keep the chip readings in FILE (read it when present: reading takes most of the time).
// `-- --groups=N`: the combiner and the aspect layer leave N groups of files out in turn (default 9).
// `-- --grid='[{...}]'`: verifier settings to compare. `-- --write`: write src/model/chip-verifier.json.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { type ChipItem, loadChipItems } from "./eval/chip-readings.ts";
import {
  CHOSEN_VERIFIER,
  type ChipCounts,
  chipCounts,
  chooseThreshold,
  crossValidateVerifier,
  type Policy,
  rates,
  type VerifierConfig,
  verified,
  verifierFile,
  writerOf,
} from "./eval/chip-verifier.ts";
import { gridOf, loadEvalBusiness, readEvalFile } from "./eval/eval-files.ts";
import { sha256 } from "./eval/evaluate.ts";
import { CHIP_AIMS } from "./eval/report.ts";
import { NOT_LEARNED } from "./eval/sets.ts";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const cache = arg("cache");
const groups = Number(arg("groups") ?? 9);
const write = process.argv.includes("--write");
const GRID: VerifierConfig[] = gridOf(process.argv, CHOSEN_VERIFIER);

let items: ChipItem[];
if (cache && existsSync(cache)) items = JSON.parse(readFileSync(cache, "utf8"));
else {
  items = await loadChipItems(await loadEvalBusiness(), groups, console.log);
  if (cache) writeFileSync(cache, JSON.stringify(items));
}
const sets = [...new Set(items.map((x) => x.set))];
const unseen = new Set(Object.keys(NOT_LEARNED));
console.log(`${items.length} reviews, ${sets.length} files; ${unseen.size} files read by the committed models`);

const pct = (c: ChipCounts) => {
  const r = rates(c);
  return `${String(c.contradicting).padStart(3)}/${String(c.shown).padEnd(5)} ${(100 * r.contradicting).toFixed(1).padStart(4)}%  ${r.recall.toFixed(3)}`;
};
const rules: Policy = (c) => !c.abstained;
const agree: Policy = (c) => c.agreed === true;
const both: Policy = (c) => !c.abstained && c.agreed === true;

function table(title: string, policies: [string, Policy][]) {
  console.log(`\n${title}\n  ${"file".padEnd(18)}${policies.map(([n]) => n.padEnd(26)).join("")}`);
  const row = (name: string, subset: readonly ChipItem[]) =>
    console.log(`  ${name.padEnd(18)}${policies.map(([, p]) => pct(chipCounts(subset, p).all).padEnd(26)).join("")}`);
  for (const s of sets)
    row(
      s,
      items.filter((x) => x.set === s),
    );
  row("pooled", items);
  row(
    "never-learned sets",
    items.filter((x) => unseen.has(x.set)),
  );
  row(
    "the other sets",
    items.filter((x) => !unseen.has(x.set)),
  );
  console.log(`  ${"per aspect (pooled)".padEnd(18)}`);
  for (const aspect of Object.keys(chipCounts(items, rules).perAspect))
    console.log(
      `  ${aspect.padEnd(18)}${policies.map(([, p]) => pct(chipCounts(items, p).perAspect[aspect]).padEnd(26)).join("")}`,
    );
}

console.log(
  "\ncontradicting/shown, share, recall (aims: at most",
  CHIP_AIMS.contradicting,
  "contradicting, recall at least",
  CHIP_AIMS.recall,
  ")",
);
let chosen = { config: GRID[0], threshold: 1, record: {} as Record<string, unknown> };
for (const config of write ? GRID.slice(0, 1) : GRID) {
  const t0 = performance.now();
  console.log(`\n${JSON.stringify(config)}: leave-one-writer-out`);
  const cv = crossValidateVerifier(items, config, console.log);
  table(`policies (the verifier's threshold chosen per writer on the other writers)`, [
    ["rules (2.12.0)", rules],
    ["rules and layer agree", agree],
    ["rules, and agree", both],
    ["verifier", cv.policy],
  ]);
  console.log(
    "\n  trade-off: one threshold for every writer over the out-of-writer scores (pooled; never-learned sets)",
  );
  for (const t of [0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 1.01]) {
    const p = verified(cv.scores, t, config.veto);
    console.log(
      `    ${t.toFixed(3).padStart(6)}  ${pct(chipCounts(items, p).all)}   ${pct(
        chipCounts(
          items.filter((x) => unseen.has(x.set)),
          p,
        ).all,
      )}`,
    );
  }
  const threshold = chooseThreshold(items, cv.scores, config);
  const pooled = rates(chipCounts(items, cv.policy).all);
  const never = rates(
    chipCounts(
      items.filter((x) => unseen.has(x.set)),
      cv.policy,
    ).all,
  );
  console.log(
    `\n  engine threshold (over every writer's out-of-writer scores): ${threshold}  (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
  );
  chosen = {
    config,
    threshold,
    record: {
      crossValidated: {
        writers: [...cv.thresholds.keys()],
        pooled,
        neverLearned: never,
        rules: rates(chipCounts(items, rules).all),
      },
    },
  };
  void writerOf;
}

if (write) {
  const files = Object.fromEntries(
    await Promise.all(sets.map(async (s) => [s, sha256(await readEvalFile(`${s}.jsonl`))])),
  );
  const file = verifierFile(items, chosen.config, chosen.threshold, files, chosen.record);
  const out = new URL("../src/model/chip-verifier.json", import.meta.url);
  await writeFile(out, `${JSON.stringify(file)}\n`);
  console.log(`\nwrote ${out.pathname}`);
}
