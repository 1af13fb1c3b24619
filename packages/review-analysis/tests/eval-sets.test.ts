// npm run eval's choice of sets (--dev, --sets a,b,c, the default) and its held-out pins: the committed held-out
// files match their sha256, a changed one is REFUSED (exit 1) by the real script, and --sets leaves the others out.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFile, cp, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { heldOutCheck } from "../scripts/eval/evaluate.ts";
import { formatReport, type Summary } from "../scripts/eval/report.ts";
import {
  chooseSets,
  DEFAULT_SETS,
  EVAL_SETS,
  type EvalSet,
  HELD_OUT,
  NOT_LEARNED,
  newHeldOutSets,
  SPENT,
} from "../scripts/eval/sets.ts";
import { LABELLED_SETS } from "../scripts/eval/text-model.ts";

const ROOT = new URL("../", import.meta.url);
const run = promisify(execFile);

test("no option scores every set but dev; --dev scores dev only", () => {
  const named = [
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
  ];
  const sets = chooseSets([]);
  assert.deepEqual(sets.slice(0, named.length), named);
  // Blind sets dropped into eval/ since (holdout-N with its sha256) follow the named ones.
  assert.ok(
    sets.slice(named.length).every((s) => /^holdout-\d+$/.test(s)),
    sets.join(", "),
  );
  assert.deepEqual(chooseSets(["--errors", "--json"]), [...DEFAULT_SETS]);
  assert.deepEqual(chooseSets(["--dev", "--errors"]), ["dev"]);
});

test("--sets scores the sets named, in that order, each once, in either spelling", () => {
  assert.deepEqual(chooseSets(["--sets", "dev,frozen,holdout,holdout-2"]), ["dev", "frozen", "holdout", "holdout-2"]);
  assert.deepEqual(chooseSets(["--errors", "--sets=holdout-2,dev,holdout-2"]), ["holdout-2", "dev"]);
  assert.deepEqual(chooseSets(["--sets", "holdout-3"]), ["holdout-3"]);
  assert.deepEqual(chooseSets(["--sets", "holdout-4,holdout-3"]), ["holdout-4", "holdout-3"]);
  assert.deepEqual(chooseSets(["--sets", "holdout-5"]), ["holdout-5"]);
  assert.deepEqual(chooseSets(["--sets", "holdout-6"]), ["holdout-6"]);
  assert.deepEqual(chooseSets(["--sets", "holdout-7"]), ["holdout-7"]);
  assert.deepEqual(chooseSets(["--sets", "holdout-8"]), ["holdout-8"]);
  assert.deepEqual(chooseSets(["--sets", "holdout-9"]), ["holdout-9"]);
});

test("--sets with an unknown, empty or missing list, or beside --dev, is an error naming the problem", () => {
  assert.throws(() => chooseSets(["--sets", "dev,holdout3"]), /unknown set "holdout3"; known: dev, dev-check, frozen/);
  assert.throws(() => chooseSets(["--sets", "dev,,frozen"]), /unknown set ""/);
  assert.throws(() => chooseSets(["--sets"]), /--sets needs a comma-separated list/);
  assert.throws(() => chooseSets(["--sets", "--json"]), /--sets needs a comma-separated list/);
  assert.throws(() => chooseSets(["--dev", "--sets", "dev"]), /exclusive/);
});

test("every held-out set is pinned, and its committed file matches its committed sha256", async () => {
  const named = [
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
  ];
  const added = EVAL_SETS.filter((s) => !(named as string[]).includes(s) && /^holdout-\d+$/.test(s));
  assert.deepEqual(Object.keys(HELD_OUT), [...named, ...added]);
  for (const [set, pin] of Object.entries(HELD_OUT)) {
    assert.ok((EVAL_SETS as readonly string[]).includes(set));
    const text = await readFile(new URL(`eval/${set}.jsonl`, ROOT), "utf8");
    const pinned = await readFile(new URL(`eval/${pin}`, ROOT), "utf8");
    assert.match(pinned, new RegExp(`^[0-9a-f]{64}  ${set}\\.jsonl\\n$`), `eval/${pin} is sha256sum output`);
    assert.equal(heldOutCheck(text, pinned).ok, true, `eval/${set}.jsonl matches eval/${pin}`);
    assert.equal(heldOutCheck(`${text} `, pinned).ok, false, "one more byte no longer matches");
  }
});

test("a held-out set tuned on since is reported as spent; the newest held-out set is not", () => {
  for (const set of Object.keys(SPENT)) assert.ok(set in HELD_OUT, `${set} was a pinned held-out set`);
  assert.ok(SPENT["holdout-2"], "holdout-2 was tuned on");
  assert.ok(SPENT["holdout-3"], "holdout-3's errors were printed");
  assert.ok(SPENT["holdout-4"], "holdout-4 was tuned on");
  assert.ok(SPENT["holdout-5"], "holdout-5 was tuned on");
  assert.ok(SPENT["holdout-6"], "holdout-6 is training data");
  assert.ok(SPENT["holdout-7"], "holdout-7 is training data");
  assert.ok(SPENT["holdout-8"], "holdout-8 is training data");
  assert.ok(SPENT["holdout-9"], "holdout-9's shown chips were read");
  assert.ok(SPENT["holdout-10"], "holdout-10's contradicting chips were read");
  assert.ok(SPENT["holdout-11"], "holdout-11's contradicting chips were read");
  assert.ok(SPENT["holdout-12"], "holdout-12 is training data of the chip verifier");
  for (const set of Object.keys(HELD_OUT))
    if (!set.match(/^holdout-(?:[2-9]|1[012])$/)) assert.equal(SPENT[set as EvalSet], undefined);
});

test("a held-out set dropped into eval/ with its sha256 beside it is scored, after the named ones, in the order of N", () => {
  const files = [
    "dev.jsonl",
    "holdout-9.jsonl",
    "holdout-9.sha256",
    "holdout-10.jsonl",
    "holdout-10.sha256",
    "holdout-13.jsonl",
    "holdout-13.sha256",
    "holdout-11.sha256",
    "holdout-11.jsonl",
    "holdout-12.jsonl",
    "holdout-12.sha256",
    "holdout-x.jsonl",
    "holdout-011.jsonl",
    "holdout-011.sha256",
  ];
  assert.deepEqual(
    newHeldOutSets(files),
    ["holdout-13"],
    "a named set is not added again; one without its sha256 is not a held-out set",
  );
  for (const set of EVAL_SETS.filter((s) => /^holdout-\d\d+$/.test(s) && !(s in SPENT))) {
    assert.equal(HELD_OUT[set], `${set}.sha256`);
    assert.ok(DEFAULT_SETS.includes(set), `${set} is scored by default`);
    assert.deepEqual(chooseSets(["--sets", set]), [set]);
  }
});

test("the models learn from no held-out set, nor from a spent one they were not trained on", () => {
  for (const set of LABELLED_SETS) {
    assert.ok(HELD_OUT[set as EvalSet] === undefined || SPENT[set as EvalSet] !== undefined, set);
    assert.equal(NOT_LEARNED[set as EvalSet], undefined, set);
  }
});

test("the chip verifier learns from no set still held out, and from the spent sets the other models never saw", async () => {
  const file = JSON.parse(await readFile(new URL("src/model/chip-verifier.json", ROOT), "utf8"));
  const learned = Object.keys(file.files);
  for (const set of learned)
    assert.ok(
      HELD_OUT[set as EvalSet] === undefined || SPENT[set as EvalSet] !== undefined,
      `${set} is still held out`,
    );
  for (const set of [...LABELLED_SETS, ...Object.keys(NOT_LEARNED)]) assert.ok(learned.includes(set), set);
  for (const [set, hash] of Object.entries(file.files as Record<string, string>)) {
    const text = await readFile(new URL(`eval/${set}.jsonl`, ROOT));
    assert.equal(
      createHash("sha256").update(text).digest("hex"),
      hash,
      `${set} changed since the verifier learned from it`,
    );
  }
});

const summary = (macroF1: number): Summary => ({
  items: 1,
  accuracy: macroF1,
  macroF1,
  allAspects: 1,
  mixedAspects: 1,
  mentionPrecision: 1,
  mentionRecall: 1,
  perClassF1: { positive: macroF1 },
  perAspect: { speed: macroF1 },
});

test("the report prints one column per earlier engine, a dash where an engine has no figure for the set", () => {
  const tally = { total: 1, correct: 1, accuracy: 1 };
  const report = {
    items: 1,
    accuracy: 1,
    macroF1: 1,
    recordMacroF1: 1,
    perClass: { positive: { precision: 1, recall: 1, f1: 1, support: 1 } },
    confusion: { positive: { positive: 1 } },
    mixedAspects: tally,
    allAspects: tally,
    perAspect: { speed: { ...tally, confusion: { positive: { positive: 1 } } } },
    mentions: { precision: 1, recall: 1, tp: 0, fp: 0, fn: 0 },
    errors: [],
  };
  const text = formatReport(
    report,
    [
      { name: "before", summary: summary(0.25) },
      { name: "5f2ee1a", summary: summary(0.5) },
      { name: "other", summary: undefined },
    ],
    false,
  );
  const lines = text.split("\n");
  assert.match(lines[0] ?? "", /now\s+before\s+5f2ee1a\s+other$/);
  assert.match(text, /review label macro-F1\s+1\.000\s+0\.250\s+0\.500\s+- {2}$/m);
  assert.match(text, /positive .* \(before 0\.250, 5f2ee1a 0\.500, other {3}- {2}\) support 1/);
  assert.match(text, /speed: 1\/1 = 1\.000 \(before 0\.250, 5f2ee1a 0\.500, other {3}- {2}\)/);
});

// The real script, on a copy of the package's eval/ and scripts/ (src linked: it resolves its dependencies from
// where it really is).
async function copyOfPackage(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "eval-sets-"));
  for (const part of ["eval", "scripts", "package.json"])
    await cp(new URL(part, ROOT), join(dir, part), { recursive: true });
  await symlink(new URL("src", ROOT).pathname, join(dir, "src"));
  return dir;
}

const evalScript = (dir: string, args: string[]) =>
  run(process.execPath, [join(dir, "scripts/eval-sentiment.ts"), ...args], { cwd: dir }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );

test("npm run eval refuses a changed held-out set (exit 1), --sets leaves it out, a bad --sets exits 2", async () => {
  const dir = await copyOfPackage();
  try {
    await appendFile(join(dir, "eval/holdout-4.jsonl"), '{"text": "tuned", "label": "positive"}\n');
    const refused = await evalScript(dir, ["--sets", "holdout-4"]);
    assert.equal(refused.code, 1);
    assert.match(refused.out, /REFUSED: eval\/holdout-4\.jsonl no longer matches eval\/holdout-4\.sha256/);
    assert.doesNotMatch(refused.out, /review label macro-F1/);

    const chosen = await evalScript(dir, ["--sets", "frozen"]);
    assert.equal(chosen.code, 0, chosen.out);
    assert.match(chosen.out, /=== eval\/frozen\.jsonl/);
    assert.match(chosen.out, /review label macro-F1/);
    assert.doesNotMatch(chosen.out, /holdout/);

    const bad = await evalScript(dir, ["--sets", "holdout-99"]);
    assert.equal(bad.code, 2);
    assert.match(bad.out, /npm run eval: --sets: unknown set "holdout-99"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
