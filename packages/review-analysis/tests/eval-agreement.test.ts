// The second annotations (eval/agreement/): scored against the writer's labels with the same scorer as the engine.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { loadEvalBusiness } from "../scripts/eval/eval-files.ts";
import { annotatorPredictor, evaluate, type LabelledItem, parseJsonl } from "../scripts/eval/evaluate.ts";
import { AGREEMENT, EVAL_SETS, HELD_OUT } from "../scripts/eval/sets.ts";

const ROOT = new URL("../", import.meta.url);
const business = await loadEvalBusiness();
const items: LabelledItem[] = [
  { text: "Great job, on time.", label: "positive", aspects: { punctuality: "positive" } },
  { text: "Rude, and late.", label: "negative", aspects: { friendliness: "negative", punctuality: "negative" } },
  { text: "Marcus was fine, the bill was not.", label: "mixed", technicians: ["marcus-delgado"] },
  { text: "It was ok.", label: "neutral" },
];
const line = (x: LabelledItem, n: number) =>
  JSON.stringify({ n, label: x.label, aspects: x.aspects, technicians: x.technicians });

test("an annotator who gives the writer's labels agrees fully; each disagreement lowers its own figure", () => {
  const same = items.map((x, i) => line(x, i + 1)).join("\n");
  const full = evaluate(items, business, annotatorPredictor(same, "same.jsonl", items.length));
  assert.equal(full.macroF1, 1);
  assert.equal(full.allAspects.accuracy, 1);
  assert.equal(full.mentions.recall, 1);
  const other = [
    line(items[0] as LabelledItem, 1),
    line({ ...(items[1] as LabelledItem), aspects: { friendliness: "negative" } }, 2),
    line({ ...(items[2] as LabelledItem), label: "negative", technicians: [] }, 3),
    line(items[3] as LabelledItem, 4),
  ].join("\n");
  const r = evaluate(items, business, annotatorPredictor(other, "other.jsonl", items.length));
  assert.equal(r.accuracy, 3 / 4);
  assert.ok(r.macroF1 < 1);
  assert.equal(r.allAspects.correct, 2);
  assert.equal(r.allAspects.total, 3);
  assert.equal(r.mixedAspects.total, 0);
  assert.deepEqual([r.mentions.tp, r.mentions.fn], [0, 1]);
  // The record figure leaves out what the annotator called mixed; the engine always gives a record label.
  assert.equal(r.recordMacroF1, 1);
});

test("a second annotation of another length, or a line out of order, is refused naming the file and line", () => {
  const lines = items.map((x, i) => line(x, i + 1));
  assert.throws(() => annotatorPredictor(lines.slice(1).join("\n"), "short.jsonl", 4), /short\.jsonl: 3 lines/);
  const swapped = [lines[1], lines[0], lines[2], lines[3]].join("\n");
  assert.throws(() => annotatorPredictor(swapped, "swapped.jsonl", 4), /swapped\.jsonl:1: needs "n": 1/);
});

test("every committed second annotation belongs to a pinned set and has one line per item", async () => {
  assert.ok(Object.keys(AGREEMENT).length > 0);
  for (const [set, file] of Object.entries(AGREEMENT)) {
    assert.ok((EVAL_SETS as readonly string[]).includes(set) && HELD_OUT[set as keyof typeof HELD_OUT], set);
    assert.ok(file, set);
    const text = await readFile(new URL(`eval/${set}.jsonl`, ROOT), "utf8");
    const setItems = parseJsonl(text, set);
    const second = await readFile(new URL(`eval/${file}`, ROOT), "utf8");
    const r = evaluate(setItems, business, annotatorPredictor(second, file, setItems.length));
    assert.equal(r.items, setItems.length);
  }
});
