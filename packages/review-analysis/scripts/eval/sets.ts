// The labelled sets npm run eval knows (eval/README.md) and which of them it scores: `--dev` (dev only),
// `--sets a,b,c` (those, in that order) or, by default, every set but dev.

import { readdirSync } from "node:fs";

/** The sets named here, as `eval/<name>.jsonl`. */
const NAMED_SETS = [
  "dev",
  "dev-check",
  "frozen",
  "holdout",
  "holdout-2",
  "holdout-3",
  "holdout-4",
  "holdout-5",
  "holdout-6",
  "holdout-7",
  "holdout-8",
  "holdout-9",
  "holdout-10",
  "holdout-11",
  "holdout-12",
] as const;
export type EvalSet = (typeof NAMED_SETS)[number] | `holdout-${number}`;

/**
 * The held-out sets added to eval/ after this file was written: each `holdout-N.jsonl` with its sha256 beside it
 * (`holdout-N.sha256`), in the order of N. A new blind set is scored by dropping its two files in, with no code
 * change that could be made after reading it.
 */
export function newHeldOutSets(files: readonly string[]): `holdout-${number}`[] {
  const present = new Set(files);
  const named = new Set<string>(NAMED_SETS);
  return files
    .map((f) => /^holdout-([1-9][0-9]*)\.jsonl$/.exec(f)?.[1])
    .filter((n): n is string => n !== undefined && present.has(`holdout-${n}.sha256`) && !named.has(`holdout-${n}`))
    .map(Number)
    .sort((a, b) => a - b)
    .map((n) => `holdout-${n}` as const);
}
const ADDED = newHeldOutSets(readdirSync(new URL("../../eval/", import.meta.url)));

/** Every set in eval/, as `eval/<name>.jsonl`. */
export const EVAL_SETS: readonly EvalSet[] = [...NAMED_SETS, ...ADDED];
/** Scored when neither `--dev` nor `--sets` is given: every set but the development ones. */
export const DEFAULT_SETS: readonly EvalSet[] = EVAL_SETS.filter((s) => s !== "dev" && s !== "dev-check");
/**
 * Held-out sets and the file holding the sha256 committed with each, before any tuning: a set that no longer
 * matches gets no figure. Each was held out in turn; the named ones are spent (SPENT): development or training data
 * now. A set added since (newHeldOutSets) is the held-out set.
 */
export const HELD_OUT: Partial<Record<EvalSet, string>> = {
  "holdout-2": "holdout-2.sha256",
  "holdout-3": "holdout-3.sha256",
  "holdout-4": "holdout-4.sha256",
  "holdout-5": "holdout-5.sha256",
  "holdout-6": "holdout-6.sha256",
  "holdout-7": "holdout-7.sha256",
  "holdout-8": "holdout-8.sha256",
  "holdout-9": "holdout-9.sha256",
  "holdout-10": "holdout-10.sha256",
  "holdout-11": "holdout-11.sha256",
  "holdout-12": "holdout-12.sha256",
  ...Object.fromEntries(ADDED.map((set) => [set, `${set}.sha256`])),
};

/**
 * Held-out sets that were tuned on after their one held-out run: their sha256 is still checked, but they are
 * reported as development sets, without the aims (a figure on a set tuned on is not a held-out figure).
 */
export const SPENT: Partial<Record<EvalSet, string>> = {
  "holdout-2": "scored once while held out; the rules were tuned on it since",
  "holdout-3": "scored once while held out; its confusion matrices were printed, so it is development data now",
  "holdout-4": "scored once while held out; the rules were tuned on it since",
  "holdout-5": "scored once while held out; the rules were tuned on it since",
  "holdout-6": "scored once while held out, on summary figures only; training data of the models since",
  "holdout-7": "scored once while held out, on summary figures only; training data of the models since",
  "holdout-8": "scored once while held out, on summary figures only; training data of the models since",
  "holdout-9":
    "scored once while held out, on summary figures only; its shown chips were read since, to choose which chips the engine abstains from",
  "holdout-10":
    "scored once while held out, on summary figures only; its contradicting chips were read since, to choose which chips the engine abstains from",
  "holdout-11":
    "scored once while held out, on summary figures only; its contradicting chips were read since, to choose how the engine reads and which chips it abstains from",
  "holdout-12":
    "scored once while held out, on summary figures only; training data of the chip verifier since (leave-one-writer-out)",
};

/**
 * Spent sets the committed review-label model and aspect layer have not learned from (they were trained while the
 * set was held out): kept out of those models' files, so that retraining with the same settings still gives the
 * committed bytes. The chip verifier learns from them: read by the committed models, they are the chips of text
 * those models never saw, as a new review's are.
 */
export const NOT_LEARNED: Partial<Record<EvalSet, string>> = {
  "holdout-9": "spent after the review-label model and the aspect layer were trained",
  "holdout-10": "spent after the review-label model and the aspect layer were trained",
  "holdout-11": "spent after the review-label model and the aspect layer were trained",
  "holdout-12": "spent after the review-label model and the aspect layer were trained",
};

/**
 * Second annotations: the same set labelled again, blind, by another annotator who saw only the texts, the label
 * format and the catalog (eval/README.md, "Agreement"). npm run eval scores it against the writer's labels beside
 * the engine's figures: how far two careful readers agree, the ceiling the engine's figure is read against.
 */
export const AGREEMENT: Partial<Record<EvalSet, string>> = {
  "holdout-5": "agreement/holdout-5.jsonl",
  "holdout-6": "agreement/holdout-6.jsonl",
  "holdout-7": "agreement/holdout-7.jsonl",
  "holdout-8": "agreement/holdout-8.jsonl",
  "holdout-9": "agreement/holdout-9.jsonl",
};

/** The sets to score for these command-line arguments; an unknown or empty `--sets` list is an error naming it. */
export function chooseSets(args: readonly string[]): EvalSet[] {
  const at = args.findIndex((a) => a === "--sets" || a.startsWith("--sets="));
  if (at === -1) return args.includes("--dev") ? ["dev"] : [...DEFAULT_SETS];
  if (args.includes("--dev")) throw new Error("--dev and --sets are exclusive: use --sets dev");
  const arg = args[at] ?? "";
  const list = arg === "--sets" ? args[at + 1] : arg.slice("--sets=".length);
  if (!list || list.startsWith("--"))
    throw new Error(`--sets needs a comma-separated list of sets: ${EVAL_SETS.join(", ")}`);
  const names = list.split(",").map((s) => s.trim());
  const unknown = names.filter((n) => !(EVAL_SETS as readonly string[]).includes(n));
  if (unknown.length)
    throw new Error(`--sets: unknown set ${unknown.map((n) => `"${n}"`).join(", ")}; known: ${EVAL_SETS.join(", ")}`);
  return [...new Set(names as EvalSet[])];
}
