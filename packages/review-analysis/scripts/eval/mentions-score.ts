// Technician mentions only, in a second: precision and recall of findMentions on every development set (the
// held-out sets only once spent) and the training files; --errors prints each miss, --dump FILE writes every
// item's technicians, to diff two versions of the rules on the items with no technician labels too.
import { writeFile } from "node:fs/promises";
import { buildMatcher, findMentions } from "../../src/mentions.ts";
import { loadEvalBusiness, readEvalFile } from "./eval-files.ts";
import { parseJsonl } from "./evaluate.ts";
import { EVAL_SETS, HELD_OUT, SPENT } from "./sets.ts";
import { TRAIN_SETS } from "./text-model.ts";

const files = [
  ...EVAL_SETS.filter((s) => !HELD_OUT[s] || SPENT[s]).map((s) => `${s}.jsonl`),
  ...TRAIN_SETS.map((s) => `${s}.jsonl`),
];
const matcher = buildMatcher(await loadEvalBusiness());
const args = process.argv.slice(2);
const dump: Record<string, string[]> = {};
const showErrors = args.includes("--errors");
const total = { tp: 0, fp: 0, fn: 0 };
for (const file of files) {
  const items = parseJsonl(await readEvalFile(file), `eval/${file}`);
  const m = { tp: 0, fp: 0, fn: 0 };
  for (const [i, item] of items.entries()) {
    const found = findMentions(matcher, item.text).technicians.sort();
    dump[`${file}:${i + 1}`] = found;
    if (!item.technicians) continue;
    const want = new Set(item.technicians);
    const fp = found.filter((t) => !want.has(t));
    const fn = [...want].filter((t) => !found.includes(t));
    m.tp += found.length - fp.length;
    m.fp += fp.length;
    m.fn += fn.length;
    if (showErrors && (fp.length || fn.length))
      console.log(`  ${file}:${i + 1} fp=[${fp}] fn=[${fn}] ${item.text.slice(0, 300)}`);
  }
  total.tp += m.tp;
  total.fp += m.fp;
  total.fn += m.fn;
  const p = m.tp / (m.tp + m.fp || 1);
  const r = m.tp / (m.tp + m.fn || 1);
  console.log(`${file.padEnd(22)} P ${p.toFixed(3)} R ${r.toFixed(3)}  tp ${m.tp} fp ${m.fp} fn ${m.fn}`);
}
console.log(
  `${"all".padEnd(22)} P ${(total.tp / (total.tp + total.fp)).toFixed(3)} R ${(total.tp / (total.tp + total.fn)).toFixed(3)}  tp ${total.tp} fp ${total.fp} fn ${total.fn}`,
);
const at = args.indexOf("--dump");
if (at !== -1) await writeFile(args[at + 1] ?? "mentions.json", JSON.stringify(dump, null, 0));
