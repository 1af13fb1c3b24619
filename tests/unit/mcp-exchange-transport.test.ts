// The shared legacy transport with the real SDK server: each POST's requests keep their own answers, and a
// prepared tools/call result is written from its bytes only when it is what the SDK sends.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Server } from "@modelcontextprotocol/server";
import { ExchangeTransport } from "../../sidecar/mcp/exchange-transport.ts";
import { callToolResult, type PreparedResult, prepare } from "../../sidecar/mcp/tool-results.ts";

/** A server whose tools/call waits `wait` ms, then answers `prepared` (or a different result when `tamper`). */
async function serverOver(transport: ExchangeTransport, prepared: PreparedResult) {
  const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const args = (request.params.arguments ?? {}) as { wait?: number; tamper?: boolean; name?: string };
    await new Promise((r) => setTimeout(r, args.wait ?? 0));
    if (args.name) return { content: [{ type: "text", text: args.name }] };
    transport.hooks.prepared?.(ctx.mcpReq.id, prepared);
    const result = callToolResult(prepared);
    return args.tamper ? { ...result, content: [{ type: "text", text: "other" }] } : result;
  });
  await server.connect(transport);
  return server;
}

const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString();

const call = (id: number | string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0" as const,
  id,
  method: "tools/call",
  params: { name: "x", arguments: args },
});

// Not how JSON.stringify writes it (the spaces): a frame holding these bytes was spliced, not re-serialised.
const prepared = prepare({ ok: true, json: Buffer.from('{"total": 1, "reviews": [{"id": "r\\"1"}]}') });

test("two POSTs sending the same id at the same time each get their own answer, with their id", async () => {
  const transport = new ExchangeTransport();
  const server = await serverOver(transport, prepared);
  const [slow, fast] = await Promise.all([
    transport.exchange([call(1, { wait: 30, name: "slow" })]),
    transport.exchange([call(1, { wait: 0, name: "fast" })]),
  ]);
  assert.deepEqual(JSON.parse(text(slow[0].frame)).result.content[0].text, "slow");
  assert.deepEqual(JSON.parse(text(fast[0].frame)).result.content[0].text, "fast");
  assert.equal(JSON.parse(text(slow[0].frame)).id, 1);
  assert.equal(transport.pending, 0);
  await server.close();
});

test("a prepared result is written from its bytes and reads as the result the SDK sent", async () => {
  const transport = new ExchangeTransport();
  const server = await serverOver(transport, prepared);
  const [{ frame }] = await transport.exchange([call("a", {})]);
  assert.ok(frame.includes(prepared.structuredJson), text(frame));
  assert.deepEqual(JSON.parse(text(frame)), {
    jsonrpc: "2.0",
    id: "a",
    result: { content: [{ type: "text", text: prepared.text }], structuredContent: JSON.parse(prepared.text) },
  });
  await server.close();
});

test("a result other than the prepared one is serialised as sent", async () => {
  const transport = new ExchangeTransport();
  const server = await serverOver(transport, prepared);
  const [{ frame }] = await transport.exchange([call(7, { tamper: true })]);
  const parsed = JSON.parse(text(frame));
  assert.equal(text(frame), JSON.stringify(parsed));
  assert.deepEqual(parsed.result.content, [{ type: "text", text: "other" }]);
  assert.deepEqual(parsed.result.structuredContent, JSON.parse(prepared.text));
  await server.close();
});

test("an unanswered request is answered -32603 with the client's id after the timeout", async () => {
  const transport = new ExchangeTransport(undefined, 20);
  const server = await serverOver(transport, prepared);
  const [{ frame }] = await transport.exchange([call(5, { wait: 200, name: "late" })]);
  assert.deepEqual(JSON.parse(text(frame)), {
    jsonrpc: "2.0",
    id: 5,
    error: { code: -32603, message: "Internal error: the request got no answer" },
  });
  await new Promise((r) => setTimeout(r, 250));
  assert.equal(transport.pending, 0);
  await server.close();
});

test("closing the transport answers the requests still waiting instead of leaving them hanging", async () => {
  const transport = new ExchangeTransport();
  const server = await serverOver(transport, prepared);
  const pending = transport.exchange([call(6, { wait: 200, name: "late" })]);
  await server.close();
  const [{ frame, error }] = await pending;
  assert.equal(error, true);
  assert.equal(JSON.parse(text(frame)).id, 6);
  assert.equal(transport.pending, 0);
});
