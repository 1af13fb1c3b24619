// Large build files served from disk: a held descriptor keeps reading the bytes that were verified even after
// another file is renamed over the path, and the block cache slices exactly like a Buffer.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { text } from "node:stream/consumers";
import { test } from "node:test";
import { BlockCachedFile, HeldFile } from "../../sidecar/build-store/held-file.ts";
import { tempDir } from "../helpers/paths.ts";

async function fileOf(bytes: Buffer): Promise<{ dir: string; path: string }> {
  const dir = await tempDir("held");
  const path = join(dir, "data.bin");
  await writeFile(path, bytes);
  return { dir, path };
}

test("a held file reads, streams and keeps its bytes when another file is renamed over its path", async () => {
  const bytes = Buffer.from(`${"x".repeat(300_000)}the end`);
  const { dir, path } = await fileOf(bytes);
  const held = await HeldFile.open(path);
  assert.equal(held.size, bytes.length);
  await writeFile(join(dir, "next.bin"), "another build");
  await rename(join(dir, "next.bin"), path);
  assert.deepEqual(held.read(), bytes);
  assert.equal(held.read(300_000, 300_007).toString(), "the end");
  assert.equal(await text(held.stream()), bytes.toString());
  const into = Buffer.alloc(7);
  assert.equal(await held.readInto(into, 0, 7, 300_000), 7);
  assert.equal(into.toString(), "the end");
});

test("the block cache gives the same slices as the bytes, across block edges and after evictions", async () => {
  const bytes = randomBytes(200_000);
  const { path } = await fileOf(bytes);
  // Two blocks of budget: most slices below evict one.
  const cached = new BlockCachedFile(await HeldFile.open(path), 32 * 1024);
  assert.equal(cached.length, bytes.length);
  const edge = 16 * 1024;
  const ranges: [number, number][] = [
    [0, 10],
    [edge - 5, edge + 5],
    [edge, edge + 1],
    [bytes.length - 3, bytes.length],
    [0, bytes.length],
  ];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (let i = 0; i < 500; i++) {
    const start = next() % bytes.length;
    ranges.push([start, Math.min(bytes.length, start + (next() % 2000))]);
  }
  for (const [start, end] of ranges)
    assert.deepEqual(cached.subarray(start, end), bytes.subarray(start, end), `bytes ${start}..${end}`);
});
