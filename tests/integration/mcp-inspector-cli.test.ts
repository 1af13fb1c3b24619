// The MCP Inspector's command line (@modelcontextprotocol/inspector --cli), run as docs/mcp.md gives it, as child
// processes against one sidecar with its default limits. The Inspector never sends DELETE, so every run leaves a
// session behind; 50 runs in a row from one address (tools/list and tools/call in turn, 50 sessions, two and a half
// times the per-address cap) must all succeed, and the sidecar must answer none of their requests with an error.
// Also: tools/list in each of the Inspector's protocol eras passes its --strict schema portability check.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { TOOL_LIST } from "../../sidecar/mcp/tools/index.ts";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { buildSample, runScript } from "../helpers/build.ts";
import { mcpAnswers, mcpMethods, since } from "../helpers/mcp-answers.ts";
import { tempDir } from "../helpers/paths.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

/** The package's bin, which `npx @modelcontextprotocol/inspector` runs; on this process's Node (it needs 22.19+). */
const INSPECTOR = "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js";
const RUNS = 50;

let sidecar: RunningSidecar;
let home: string;
let reviewId: string;
before(async () => {
  sidecar = await startTestSidecar(await buildSample());
  // The Inspector keeps its catalog and OAuth state under ~/.mcp-inspector: a home of its own, never the user's.
  home = await tempDir("inspector-home");
  const search = (await (await fetch(`${sidecar.url}/api/reviews/search?limit=1`)).json()) as {
    reviews: { id: string }[];
  };
  reviewId = search.reviews[0].id;
});
after(() => sidecar.close());

/** `npx @modelcontextprotocol/inspector --cli {url}/mcp ARGS` as a child process, to its end. */
const inspector = (args: string[]) => runScript(INSPECTOR, ["--cli", `${sidecar.url}/mcp`, ...args], { HOME: home });

/** The tools/call runs, turn by turn over every tool, with the arguments docs/mcp.md shows. */
const CALLS: string[][] = [
  ["--tool-name", "get_business"],
  ["--tool-name", "search_reviews", "--tool-arg", "query=furnace", "limit=3"],
  ["--tool-name", "get_review", "--tool-arg", "id=REVIEW_ID"],
  ["--tool-name", "get_reviews_since", "--tool-arg", "date=2025-06-01", "limit=5"],
  ["--tool-name", "get_insights", "--tool-arg", "section=summary"],
];

test(`the Inspector CLI ${RUNS} times in a row from one address: tools/list and tools/call in turn all succeed`, {
  timeout: 30 * 60_000,
}, async () => {
  assert.deepEqual(CALLS.map((c) => c[1]).sort(), TOOL_LIST.map((t) => t.name).sort(), "every tool has a call");
  const answersBefore = await mcpAnswers(sidecar.url);
  const methodsBefore = await mcpMethods(sidecar.url);
  for (let run = 0; run < RUNS; run++) {
    if (run % 2 === 0) {
      const list = await inspector(["--transport", "http", "--method", "tools/list"]);
      assert.equal(list.code, 0, `run ${run} tools/list:\n${list.stderr}`);
      const { tools } = JSON.parse(list.stdout) as { tools: { name: string }[] };
      assert.equal(tools.length, TOOL_LIST.length, `run ${run}`);
      continue;
    }
    const call = CALLS[((run - 1) / 2) % CALLS.length].map((a) => a.replace("REVIEW_ID", reviewId));
    const result = await inspector(["--transport", "http", "--method", "tools/call", ...call]);
    assert.equal(result.code, 0, `run ${run} ${call.join(" ")}:\n${result.stderr}`);
    const parsed = JSON.parse(result.stdout) as { isError?: boolean; structuredContent?: object };
    assert.notEqual(parsed.isError, true);
    assert.ok(parsed.structuredContent, `run ${run} ${call[1]}: structured content`);
  }
  const answers = since(answersBefore, await mcpAnswers(sidecar.url));
  const methods = since(methodsBefore, await mcpMethods(sidecar.url));
  assert.equal(methods.initialize, RUNS, "one session per Inspector process, none retried");
  assert.equal(methods["tools/call"], RUNS / 2);
  // 200s and 202s only, besides the Inspector's probe for an SSE stream (GET /mcp: 405, none is offered).
  assert.deepEqual(
    Object.keys(answers).filter((k) => !["POST 200", "POST 202", "GET 405"].includes(k)),
    [],
    JSON.stringify(answers),
  );
});

for (const era of ["legacy", "auto", "modern"]) {
  test(`the Inspector CLI --protocol-era ${era}: tools/list passes its --strict portability check`, async () => {
    const methodsBefore = await mcpMethods(sidecar.url);
    const run = await inspector(["--protocol-era", era, "--method", "tools/list", "--strict", "--format", "json"]);
    assert.equal(run.code, 0, run.stderr);
    const methods = since(methodsBefore, await mcpMethods(sidecar.url));
    // legacy: a 2025 session; modern: 2026-07-28, which has no initialize; auto: whichever the server offers.
    if (era === "legacy") assert.equal(methods.initialize, 1, JSON.stringify(methods));
    if (era === "modern") assert.equal(methods.initialize, undefined, JSON.stringify(methods));
    const out = JSON.parse(run.stdout) as { result: { tools: unknown[] }; schemaFindings?: unknown[] };
    assert.equal(out.result.tools.length, TOOL_LIST.length);
    assert.deepEqual(out.schemaFindings ?? [], [], "no findings, not even warnings");
  });
}
