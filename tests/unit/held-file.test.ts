// Large build files served from disk: a held descriptor keeps reading the bytes that were verified even after
// another file is renamed over the path, is sent whole to clients reading at any pace (its chunk buffers are
// reused), and the block cache slices exactly like a Buffer.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rename, truncate, writeFile } from "node:fs/promises";
import { createServer, get, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { BlockCachedFile, HeldFile } from "../../sidecar/build-store/held-file.ts";
import { tempDir } from "../helpers/paths.ts";
import { until } from "../helpers/until.ts";

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
  assert.equal((await sendOnce(held)).body.toString(), bytes.toString());
  const into = Buffer.alloc(7);
  assert.equal(await held.readInto(into, 0, 7, 300_000), 7);
  assert.equal(into.toString(), "the end");
});

/** An HTTP server on an ephemeral port that sends `held` as every response's body. */
async function serving(
  held: HeldFile,
): Promise<{ url: string; close: () => Promise<void>; closedResponses: () => number }> {
  let closed = 0;
  const server = createServer((_req, res) => {
    res.once("close", () => closed++);
    res.setHeader("Content-Length", held.size);
    held.sendTo(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, close: () => new Promise((r) => server.close(() => r())), closedResponses: () => closed };
}

/** One GET; `pauseEvery` chunks the client stops reading for `pauseMs` (a slow reader: the socket fills). */
function download(url: string, pauseEvery = 0, pauseMs = 0): Promise<{ body: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    get(url, (res: IncomingMessage) => {
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => {
        parts.push(d);
        if (pauseEvery && parts.length % pauseEvery === 0) {
          res.pause();
          // Reading slowly is the thing under test (the server's socket fills), so here a pause is a fixed time.
          void sleep(pauseMs).then(() => res.resume());
        }
      });
      res.on("end", () => resolve({ body: Buffer.concat(parts), complete: res.complete }));
      res.on("error", () => resolve({ body: Buffer.concat(parts), complete: false }));
    }).on("error", reject);
  });
}

async function sendOnce(held: HeldFile) {
  const server = await serving(held);
  try {
    return await download(server.url);
  } finally {
    await server.close();
  }
}

test("a held file reaches clients whole at any reading pace, many at once, though its chunk buffers are reused", async () => {
  const bytes = randomBytes(3_000_000);
  const { path } = await fileOf(bytes);
  const server = await serving(await HeldFile.open(path));
  try {
    for (let round = 0; round < 2; round++) {
      const got = await Promise.all([
        download(server.url),
        download(server.url, 5, 20),
        download(server.url, 1, 2),
        download(server.url),
        download(server.url, 20, 50),
      ]);
      for (const [i, { body, complete }] of got.entries()) {
        assert.ok(complete, `client ${i}: whole response`);
        assert.ok(body.equals(bytes), `client ${i}, round ${round}: the file's bytes`);
      }
    }
  } finally {
    await server.close();
  }
});

test("a held file found shorter while it is sent cuts the response: the client sees it incomplete", async () => {
  const { path } = await fileOf(randomBytes(1_000_000));
  const held = await HeldFile.open(path);
  await truncate(path, 100_000);
  const { body, complete } = await sendOnce(held);
  assert.equal(complete, false);
  assert.ok(body.length <= 100_000);
});

test("a client that leaves mid-body does not close the held descriptor: the file is still read and sent whole", {
  timeout: 60_000,
}, async () => {
  const bytes = randomBytes(2_000_000);
  const { path } = await fileOf(bytes);
  const held = await HeldFile.open(path);
  const server = await serving(held);
  try {
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve) => {
        const req = get(server.url, (res) => {
          res.once("data", () => {
            req.destroy();
            resolve();
          });
        });
        req.on("error", () => resolve());
      });
    }
    // The aborted responses (and the streams sending them) are done before the descriptor is used again.
    await until("the server to see the five aborted responses close", () => server.closedResponses() >= 5);
    assert.deepEqual(held.read(1_000_000, 1_000_100), bytes.subarray(1_000_000, 1_000_100));
    assert.deepEqual((await download(server.url)).body, bytes);
  } finally {
    await server.close();
  }
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
