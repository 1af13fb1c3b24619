// npm run eval [-- --dev] [-- --errors] [-- --json]: scores the analysis on the labelled sets in eval/
// (see eval/README.md) beside the figures of the engine before issue 18 (eval/baseline.json), and measures
// analysis throughput. A held-out set whose sha256 no longer matches the committed one gets no figure.
import { readFile } from "node:fs/promises";
import { nameWords } from "../src/domain/analysis/mentions.ts";
import { BusinessContent } from "../src/domain/schemas/content.ts";
import { generateReviews } from "./content-generator/generate.ts";
import { evaluate, heldOutCheck, parseJsonl, sha256 } from "./eval/evaluate.ts";
import { formatReport, type Summary, summarise } from "./eval/report.ts";
import { reviewsPerSecond } from "./eval/throughput.ts";

const EVAL = new URL("../eval/", import.meta.url);
const read = (name: string) => readFile(new URL(name, EVAL), "utf8");
// holdout-2 is the held-out set of issue 18; its sha256 was committed with it, before any tuning.
const HELD_OUT: Record<string, string> = { "holdout-2": "holdout-2.sha256" };
const args = process.argv.slice(2);
const sets = args.includes("--dev") ? ["dev"] : ["frozen", "holdout", "holdout-2"];
const content = JSON.parse(await readFile(new URL("../content/business.json", import.meta.url), "utf8"));
const extra = JSON.parse(await read("extra-technicians.json")) as { technicians: unknown[] };
const business = BusinessContent.parse({ ...content, technicians: [...content.technicians, ...extra.technicians] });
const baseline = JSON.parse(await read("baseline.json").catch(() => "{}")) as {
  engine?: string;
  sets?: Record<string, Summary>;
};

const summaries: Record<string, Summary> = {};
for (const set of sets) {
  const file = `eval/${set}.jsonl`;
  const text = await read(`${set}.jsonl`);
  console.log(`\n=== ${file} sha256 ${sha256(text)}`);
  const pinned = HELD_OUT[set];
  if (pinned) {
    const { ok, committed } = heldOutCheck(text, await read(pinned));
    if (!ok) {
      console.log(`REFUSED: ${file} no longer matches eval/${pinned} (${committed}); no held-out figure is reported.`);
      process.exitCode = 1;
      continue;
    }
    console.log(`held-out: matches eval/${pinned}, committed before any tuning`);
  }
  const report = evaluate(parseJsonl(text, file), business);
  summaries[set] = summarise(report);
  console.log(`${report.items} items; "before" = ${baseline.engine ?? "no baseline"}`);
  console.log(formatReport(report, baseline.sets?.[set], Boolean(pinned)));
  if (args.includes("--errors"))
    for (const e of report.errors) console.log(`  ✗ ${e.text}\n      expected ${e.expected}, got ${e.got}`);
}

const corpus = generateReviews({ count: 2000, seed: 18, from: "2024-01-01", to: "2025-12-31" }).map(
  (f) => (f.json as { text: string }).text,
);
const rate = reviewsPerSecond(corpus, nameWords(business));
console.log(`\nanalysis throughput: ${Math.round(rate).toLocaleString("en")} reviews/s on one core (aim 10,000)`);
if (args.includes("--json")) console.log(JSON.stringify({ sets: summaries, reviewsPerSecond: Math.round(rate) }));
