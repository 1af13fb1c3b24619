import assert from "node:assert/strict";
import { test } from "node:test";
import { closeBidi } from "../../src/domain/bidi.ts";

test("closeBidi closes what text leaves open, innermost first, and leaves balanced text alone", () => {
  assert.equal(closeBidi("plain"), "plain");
  assert.equal(closeBidi("a\u202eb"), "a\u202eb\u202c");
  assert.equal(closeBidi("a\u202eb\u202c c"), "a\u202eb\u202c c");
  assert.equal(closeBidi("\u2067x\u202ey"), "\u2067x\u202ey\u202c\u2069");
  // A PDI closes its isolate and every embedding opened inside it.
  assert.equal(closeBidi("\u202b\u2066x\u202dy\u2069z"), "\u202b\u2066x\u202dy\u2069z\u202c");
  // A stray PDF or PDI closes nothing.
  assert.equal(closeBidi("\u202c\u2069\u202ex"), "\u202c\u2069\u202ex\u202c");
});
