// Where the MCP answer lane (sidecar/mcp/prepared-calls.ts) finds a body's id: only a plain token in the two
// places clients put it, so that another plain token in its place changes the id and nothing else.
import assert from "node:assert/strict";
import { test } from "node:test";
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
