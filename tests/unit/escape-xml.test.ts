// escapeXml returns strings with nothing to escape as they are, and otherwise escapes &<>"' and drops the code
// points XML 1.0 forbids: checked against the two replacements it stands for, for every UTF-16 code unit.
import assert from "node:assert/strict";
import { test } from "node:test";
import { escapeXml } from "../../src/domain/feeds/escape.ts";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const reference = (s: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML forbids are the point
  s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "").replace(/[&<>"']/g, (c) => ENTITIES[c]);

test("escapeXml: every code unit, alone and among text, as the two replacements give it", () => {
  for (let unit = 0; unit <= 0xffff; unit++) {
    const c = String.fromCharCode(unit);
    for (const s of [c, `a${c}b`]) assert.equal(escapeXml(s), reference(s), `U+${unit.toString(16)}`);
  }
  assert.equal(escapeXml("https://x.test/reviews/a-b/"), "https://x.test/reviews/a-b/");
  assert.equal(escapeXml('Tom & "Jerry\'s" <b>\u0001\uffff'), "Tom &amp; &quot;Jerry&#39;s&quot; &lt;b&gt;");
});
