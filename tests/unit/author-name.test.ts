// AUTHOR_NAME_POLICY: how an imported reviewer's name is written.
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatAuthorName } from "../../src/domain/import/author-name.ts";

test("initial: first name and the last name's initial; one word stays; white space is tidied", () => {
  assert.equal(formatAuthorName("Marcus Hill", "initial"), "Marcus H.");
  assert.equal(formatAuthorName("  Mary   Ann  Smith-Jones ", "initial"), "Mary S.");
  assert.equal(formatAuthorName("Marcus H.", "initial"), "Marcus H.");
  assert.equal(formatAuthorName("Anonymous", "initial"), "Anonymous");
  assert.equal(formatAuthorName("Zoë 𝒵ed", "initial"), "Zoë 𝒵.", "a whole code point, not half a surrogate pair");
});

test("first and full", () => {
  assert.equal(formatAuthorName("Marcus Hill", "first"), "Marcus");
  assert.equal(formatAuthorName("Marcus Hill", "full"), "Marcus Hill");
  assert.equal(formatAuthorName(" Marcus Hill ", "full"), "Marcus Hill");
});
