// The build hashes its large files on the thread pool: the digest must be sha256Hex's, for any bytes.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { sha256HexOffThread } from "../../src/build/hash-off-thread.ts";
import { sha256Hex } from "../../src/domain/hash.ts";

test("sha256HexOffThread gives sha256Hex's digest: empty, small, a view into a larger buffer, several MB", async () => {
  const big = randomBytes(5 << 20);
  const cases = [new Uint8Array(0), Buffer.from("reviews"), big.subarray(1000, 70_000), big];
  for (const bytes of cases) assert.equal(await sha256HexOffThread(bytes), sha256Hex(bytes));
  assert.equal(
    await sha256HexOffThread(Buffer.from("abc")),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
});
