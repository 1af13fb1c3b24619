// sha256Hex: the standard digest (FIPS 180-2 vectors) of strings (as UTF-8) and bytes alike.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sha256Hex } from "../../src/domain/hash.ts";

test("sha256Hex gives the standard digests, strings taken as UTF-8", () => {
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(sha256Hex("Martínez"), sha256Hex(new TextEncoder().encode("Martínez")));
  assert.notEqual(sha256Hex("Martínez"), sha256Hex(Buffer.from("Martínez", "latin1")));
});
