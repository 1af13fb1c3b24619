// The official MCP conformance runner against the sidecar, at 2026-07-28 and at 2025-11-25. Scenarios that
// need the runner's fixture tools (test_simple_text, test_image_content, ...) or features a read-only
// server does not offer (logging, completions, subscriptions, sampling, elicitation) do not apply; the
// README lists them. Everything that applies must pass.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { buildSample } from "../helpers/build.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";
import { type SidecarProcess, startSidecarProcess } from "../helpers/sidecar-process.ts";

const RUNNER = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

const APPLICABLE: Record<string, string[]> = {
  "2026-07-28": [
    "server-stateless",
    "tools-list",
    "resources-list",
    "prompts-list",
    "sep-2164-resource-not-found",
    "dns-rebinding-protection",
    "caching",
    "server-sse-multiple-streams",
    "http-header-validation",
  ],
  "2025-11-25": [
    "server-initialize",
    "ping",
    "tools-list",
    "resources-list",
    "prompts-list",
    "dns-rebinding-protection",
    "server-session-lifecycle",
    "server-sse-multiple-streams",
  ],
};

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
  details?: { untestable?: boolean };
}

let sidecar: SidecarProcess;
before(async () => {
  sidecar = await startSidecarProcess({
    DIST_DIR: await buildSample(),
    DATA_DIR: join(await tempDir("data"), "data"),
    // The runner opens dozens of sessions from one address; the per-client limit has its own test.
    MCP_MAX_SESSIONS_PER_CLIENT: "1000",
    LOG_LEVEL: "info",
  });
});
after(() => sidecar.stop());

function runConformance(revision: string, outDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [RUNNER, "server", "--url", `${sidecar.url}/mcp`, "--requirements", revision, "-o", outDir],
      { cwd: outDir, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", () => resolve(out));
  });
}

async function checksByScenario(outDir: string): Promise<Map<string, Check[]>> {
  const byScenario = new Map<string, Check[]>();
  for (const dir of await readdir(outDir)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(dir)?.[1];
    if (scenario)
      byScenario.set(scenario, JSON.parse(await readFile(join(outDir, dir, "checks.json"), "utf8")) as Check[]);
  }
  return byScenario;
}

for (const [revision, scenarios] of Object.entries(APPLICABLE)) {
  test(`conformance ${revision}: every applicable scenario passes`, { timeout: 240_000 }, async () => {
    const outDir = await tempDir("conformance");
    const output = await runConformance(revision, outDir);
    const results = await checksByScenario(outDir);
    for (const scenario of scenarios) {
      const checks = results.get(scenario);
      assert.ok(checks && checks.length > 0, `${scenario} did not run:\n${output.slice(-2000)}`);
      // "Not testable" checks need the runner's fixture tools; they say so themselves.
      const failed = checks.filter((c) => c.status === "FAILURE" && !c.details?.untestable);
      assert.deepEqual(
        failed.map((c) => `${c.id}: ${c.errorMessage}`),
        [],
        `${revision} ${scenario}`,
      );
      assert.ok(
        checks.some((c) => c.status === "SUCCESS"),
        `${scenario}: at least one check passed`,
      );
    }
  });
}
