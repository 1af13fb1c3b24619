// Where the MCP answer lane (sidecar/mcp/prepared-calls.ts) finds a body's id: only a plain token in the two
// places clients put it, so that another plain token in its place changes the id and nothing else.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { idToken } from "../../sidecar/mcp/prepared-calls.ts";

const tokenOf = (text: string) => {
  const at = idToken(text);
  return at && text.slice(at.start, at.end);
};

test("the id right after jsonrpc, or as the last member, when it is a plain token", () => {
  const cases: [string, string | undefined][] = [
    ['{"jsonrpc":"2.0","id":7,"method":"tools/call"}', "7"],
    ['{"jsonrpc":"2.0","id":-12,"method":"x"}', "-12"],
    ['{"jsonrpc":"2.0","id":"a b é","method":"x"}', '"a b é"'],
    ['{"method":"tools/call","params":{},"jsonrpc":"2.0","id":1099511627776}', "1099511627776"],
    ['{"method":"x","jsonrpc":"2.0","id":"r-1"}', '"r-1"'],
    ['{"method":"x","id":0}', "0"],
    // Not plain: escapes, control characters, fractions, exponents, leading zeros, too many digits, null.
    ['{"jsonrpc":"2.0","id":"a\\"b","method":"x"}', undefined],
    ['{"jsonrpc":"2.0","id":"a\\nb","method":"x"}', undefined],
    ['{"jsonrpc":"2.0","id":"a\tb","method":"x"}', undefined],
    ['{"jsonrpc":"2.0","id":1.5,"method":"x"}', undefined],
    ['{"jsonrpc":"2.0","id":1e3,"method":"x"}', undefined],
    ['{"jsonrpc":"2.0","id":07,"method":"x"}', undefined],
    ['{"jsonrpc":"2.0","id":1234567890123456,"method":"x"}', undefined],
    ['{"method":"x","jsonrpc":"2.0","id":null}', undefined],
    ['{"method":"x","id":-}', undefined],
    // Not in either place: inside params, before whitespace, after a space in the prefix.
    ['{"method":"x","params":{"id":5}}', undefined],
    ['{"method":"x","id":5} ', undefined],
    ['{"method":"x","id":5\n}', undefined],
    ['{ "jsonrpc":"2.0","id":5,"method":"x"}', undefined],
    ['{"jsonrpc":"2.0","id":5}', undefined],
    ['{"jsonrpc":"2.0","id":"unclosed', undefined],
    ["", undefined],
  ];
  for (const [text, want] of cases) assert.equal(tokenOf(text), want, text);
});

test("another plain token in the found place changes the id and nothing else", () => {
  const bodies = [
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"a","arguments":{"q":"x\\",\\"id\\":9}"}}}',
    '{"method":"tools/call","params":{"name":"a","arguments":{"id":4}},"jsonrpc":"2.0","id":"s"}',
  ];
  for (const text of bodies) {
    const at = idToken(text);
    assert.ok(at, text);
    const original = JSON.parse(text);
    for (const token of ["0", "-5", "123456789012345", '""', '"é x"']) {
      const other = JSON.parse(text.slice(0, at.start) + token + text.slice(at.end));
      assert.deepEqual({ ...other, id: original.id }, original);
      assert.deepEqual(other.id, JSON.parse(token));
    }
  }
});

test("property: where the lane's check passes, any plain token in the found place is the id and nothing else changes", () => {
  // Bodies as clients and attackers write them: members in any order, duplicates, whitespace, ids of every kind.
  const idValue = fc.oneof(
    fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }),
    fc.constantFrom(-0, 1.5, 1e21, 2 ** 53 + 2, null, true, "", 'a"b', "a\\b", "\u2028", "\ud800"),
    fc.string({ unit: "binary", maxLength: 8 }),
    fc.jsonValue({ maxDepth: 1 }),
  );
  const spelled = fc
    .tuple(idValue, fc.constantFrom("", "", "", " ", "\n"))
    .map(([v, ws]) => `${ws}${JSON.stringify(v)}${ws}`);
  const member = fc.oneof(
    fc.constant('"jsonrpc":"2.0"'),
    fc.constant('"method":"tools/call"'),
    spelled.map((v) => `"id":${v}`),
    fc.jsonValue({ maxDepth: 2 }).map((v) => `"params":${JSON.stringify({ name: "t", arguments: { q: v } })}`),
    fc.string({ maxLength: 6 }).map((k) => `${JSON.stringify(k)}:${JSON.stringify(`,"id":${k}}`)}`),
  );
  const body = fc.oneof(
    fc.array(member, { maxLength: 6 }).map((ms) => `{${ms.join(",")}}`),
    fc
      .tuple(spelled, fc.array(member, { maxLength: 5 }))
      .map(([id, ms]) => `{"jsonrpc":"2.0","id":${id}${ms.map((m) => `,${m}`).join("")}}`),
  );
  const plain = fc.oneof(
    fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }).map(String),
    fc.constant("-0"),
    fc
      .string({ unit: "binary", maxLength: 8 })
      .filter((t) => ![...t].some((c) => c === '"' || c === "\\" || c < " "))
      .map((t) => `"${t}"`),
  );
  let found = 0;
  fc.assert(
    fc.property(body, plain, (text, token) => {
      const at = idToken(text);
      if (!at) return;
      // The lane's check before it remembers a body (prepared-calls.ts, remember): null in the token's place reads back.
      let original: Record<string, unknown>;
      let check: unknown;
      try {
        original = JSON.parse(text);
        check = JSON.parse(`${text.slice(0, at.start)}null${text.slice(at.end)}`);
      } catch {
        return;
      }
      // ... and the lane only remembers a body it answers: one whose id is a string or a safe integer.
      if (!(typeof original.id === "string" || Number.isSafeInteger(original.id))) return;
      if (typeof check !== "object" || check === null || (check as { id?: unknown }).id !== null) return;
      found++;
      const other = `${text.slice(0, at.start)}${token}${text.slice(at.end)}`;
      const again = idToken(other);
      assert.deepEqual(again && [other.slice(0, again.start), other.slice(again.end)], [
        text.slice(0, at.start),
        text.slice(at.end),
      ]);
      const parsed = JSON.parse(other);
      assert.ok(Object.is(parsed.id, JSON.parse(token)));
      assert.deepEqual({ ...parsed, id: original.id }, original);
    }),
    { seed: 20261122, numRuns: 3000 },
  );
  assert.ok(found > 150, `${found} bodies with a token`);
});
