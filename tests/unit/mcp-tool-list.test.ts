// tools/list as agents receive it: small enough for a context window, no placeholder bounds, JSON Schema's own
// keywords, every schema compiling in Ajv's strict mode.
import assert from "node:assert/strict";
import { test } from "node:test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { TOOL_LIST } from "../../sidecar/mcp/tools/index.ts";

test("tools/list is at most 12 KiB, without ±MAX_SAFE_INTEGER bounds or OpenAPI's `example`", () => {
  const text = JSON.stringify({ tools: TOOL_LIST });
  assert.ok(Buffer.byteLength(text) <= 12 * 1024, `${Buffer.byteLength(text)} bytes`);
  assert.doesNotMatch(text, /9007199254740991/);
  assert.doesNotMatch(text, /"example"/);
});

test("every tool's input and output schema compiles in Ajv's strict mode", () => {
  const ajv = new Ajv2020.default({ strict: true, allErrors: true });
  addFormats.default(ajv);
  for (const t of TOOL_LIST) {
    assert.doesNotThrow(() => ajv.compile(t.inputSchema), `${t.name} input`);
    assert.doesNotThrow(() => ajv.compile(t.outputSchema), `${t.name} output`);
    assert.equal(t.inputSchema.type, "object", t.name);
  }
});
