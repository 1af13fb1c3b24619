// Entry points refuse another Node than package.json's engines and say how to run the project's own.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { nodeVersionProblem } from "../../src/require-node-version.ts";
import { ROOT } from "../helpers/paths.ts";

const ENGINES = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).engines.node as string;

test("the project's own Node passes; an older or newer major is refused with the command to use", () => {
  assert.equal(nodeVersionProblem(process.versions.node, ENGINES, "x.ts"), undefined, "the Node running the tests");
  assert.equal(nodeVersionProblem("24.0.0", ">=24 <25", "x.ts"), undefined);
  for (const v of ["22.12.0", "v20.20.2", "25.0.0"]) {
    const problem = nodeVersionProblem(v, ">=24 <25", "sidecar/server.ts");
    assert.ok(problem, v);
    assert.match(problem, new RegExp(`this is Node ${v.replace(/^v/, "").replaceAll(".", "\\.")}`));
    assert.match(problem, /npx node sidecar\/server\.ts/);
    assert.match(problem, /node_modules\/\.bin\/node sidecar\/server\.ts/);
  }
});

test("every entry point checks the Node version before anything else", () => {
  const entries = [
    "sidecar/server.ts",
    "sidecar/start.ts",
    ...["build", "import", "publish", "hub", "nginx-config", "generate-content", "docs", "test"].map(
      (s) => `scripts/${s}.ts`,
    ),
  ];
  for (const entry of entries) {
    const firstImport = /^import [^\n]*$/m.exec(readFileSync(join(ROOT, entry), "utf8"))?.[0];
    assert.match(firstImport ?? "", /require-node-version\.ts";$/, entry);
  }
});
