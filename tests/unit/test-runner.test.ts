// The test runner (scripts/test.ts) fails a run in which a test file's results did not all arrive: node:test alone
// passes a file whose process ended early with a success code, counting only the tests it saw.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";
import { ROOT } from "../helpers/paths.ts";

const FIXTURES = "tests/unit/fixtures/test-runner";

// This process is itself a test file's: without its node:test marker in the environment, the runner runs as a
// developer's would instead of reporting to this process's parent.
const { NODE_TEST_CONTEXT: _, ...env } = process.env;

async function runTests(...files: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["scripts/test.ts", "unit", ...files], {
      cwd: ROOT,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const { code, stdout, stderr } = e as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

test("a file whose process exits in the middle of its tests fails the run and is named", async () => {
  const run = await runTests(`${FIXTURES}/whole.ts`, `${FIXTURES}/exits-early.ts`);
  assert.notEqual(run.code, 0, run.stdout);
  assert.match(run.stderr, /exits-early\.ts: no summary came from its process/);
  assert.doesNotMatch(run.stderr, /whole\.ts/, "a file whose report arrived whole is not blamed");
  assert.doesNotMatch(run.stdout, /never runs/);
});

test("a run whose files all report whole passes, with every test counted", async () => {
  const run = await runTests(`${FIXTURES}/whole.ts`);
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /ℹ tests 3\n/);
  assert.doesNotMatch(run.stderr, /did not all arrive/);
});
