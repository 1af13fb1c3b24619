// The JSON-RPC shape checks and the params checks /mcp runs before the SDK.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { classifyBody, messageProblem } from "../../sidecar/mcp/json-rpc.ts";
import { paramsProblem } from "../../sidecar/mcp/params.ts";

test("requests, notifications and responses pass; their batches too", () => {
  for (const m of [
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", id: "a", method: "tools/list", params: {} },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 3, result: {} },
    { jsonrpc: "2.0", id: 4, error: { code: 1, message: "x" } },
  ])
    assert.equal(messageProblem(m), undefined, JSON.stringify(m));
  const batch = classifyBody([
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", method: "n" },
  ]);
  assert.ok(batch.ok && batch.batch && batch.messages.length === 2);
});

test("valid JSON that is not a message is -32600, echoing a usable id", () => {
  const cases: [unknown, string | number | null][] = [
    [42, null],
    ["ping", null],
    [null, null],
    [{}, null],
    [{ jsonrpc: "1.0", id: 7, method: "ping" }, 7],
    [{ jsonrpc: "2.0", id: "x" }, "x"],
    [{ jsonrpc: "2.0", id: 8, method: 5 }, 8],
    [{ jsonrpc: "2.0", id: 9, method: "ping", params: [1] }, 9],
    [{ jsonrpc: "2.0", id: { a: 1 }, method: "ping" }, null],
    [{ jsonrpc: "2.0", id: 10, result: {}, error: {} }, 10],
    [{ jsonrpc: "2.0", id: 11, method: "ping", result: {} }, 11],
    [{ x: 1, jsonrpc: "2.0", id: 12, method: "ping" }, 12],
    [{ jsonrpc: "2.0", method: "notifications/initialized", meta: {} }, null],
    [{ jsonrpc: "2.0", id: 13, result: {}, extra: true }, 13],
  ];
  for (const [body, id] of cases) {
    const out = classifyBody(body);
    assert.ok(!out.ok, JSON.stringify(body));
    assert.equal(out.problem.code, -32600);
    assert.equal(out.problem.id, id);
    assert.match(out.problem.message, /^Invalid Request: /);
  }
  const empty = classifyBody([]);
  assert.ok(!empty.ok && /empty batch/.test(empty.problem.message));
  const inner = classifyBody([{ jsonrpc: "2.0", id: 1, method: "ping" }, 3]);
  assert.ok(!inner.ok && /in the batch/.test(inner.problem.message));
});

test("any JSON value is classified without throwing", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (v) => {
      const out = classifyBody(v);
      assert.ok(out.ok || [-32600].includes(out.problem.code));
    }),
    { numRuns: 2000 },
  );
});

test("params of served methods: -32602 naming each field, one line, no zod dump", () => {
  const bad = paramsProblem({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { arguments: "x" } });
  assert.equal(bad?.code, -32602);
  assert.equal(bad?.id, 5);
  assert.match(bad?.message ?? "", /params\.name: .*; params\.arguments: /);
  assert.ok(!(bad?.message ?? "").includes("\n"));
  assert.equal(paramsProblem({ jsonrpc: "2.0", id: 6, method: "resources/read", params: { uri: 5 } })?.code, -32602);
  assert.equal(
    paramsProblem({ jsonrpc: "2.0", id: 7, method: "prompts/get", params: { name: "p", arguments: { a: 1 } } })
      ?.message,
    "Invalid params for prompts/get: params.arguments.a: Invalid input: expected string, received number",
  );
  assert.equal(paramsProblem({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "x" } }), undefined);
  assert.equal(paramsProblem({ jsonrpc: "2.0", id: 9, method: "ping" }), undefined);
  assert.equal(paramsProblem({ jsonrpc: "2.0", method: "tools/call" }), undefined, "notifications are not checked");
});

test("method names that are Object.prototype keys are unknown methods, not a crash", () => {
  for (const method of ["__proto__", "constructor", "toString", "hasOwnProperty"])
    assert.equal(paramsProblem({ jsonrpc: "2.0", id: 1, method }), undefined, method);
});

test("tools/call params: the usual shapes pass (checked without zod), every other shape is still -32602", () => {
  const call = (params: unknown) => paramsProblem({ jsonrpc: "2.0", id: 1, method: "tools/call", params } as never);
  for (const params of [{ name: "x" }, { name: "x", arguments: {} }, { name: "x", arguments: { a: [1] }, _meta: {} }])
    assert.equal(call(params), undefined, JSON.stringify(params));
  for (const params of [
    {},
    { name: 1 },
    { name: "x", arguments: [] },
    { name: "x", arguments: null },
    { name: "x", _meta: "m" },
    { name: "x", _meta: [] },
  ])
    assert.equal(call(params)?.code, -32602, JSON.stringify(params));
});
