// At 10,000 generated reviews: every MCP answer (tool results, resource reads, prompts) fits in 64 KiB, and
// readers of since/2000-01-01 (the whole list, several MB) that read slowly cost the sidecar about a chunk each,
// while health probes are answered meanwhile, and that slow readers get every byte (no keep-alive close cuts
// them). Traffic on loopback; the sidecar is a real process (its RSS is read from /proc).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { get } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Agent, request } from "undici";
import { generateContent } from "../../bench/generate.ts";
import { readSlowly } from "../../bench/lib/probe.ts";
import { MCP_ANSWER_MAX_BYTES } from "../../src/domain/limits.ts";
import { runBuild } from "../helpers/build.ts";
import { tempDir } from "../helpers/paths.ts";
import { type SidecarProcess, startSidecarProcess } from "../helpers/sidecar-process.ts";
import { until } from "../helpers/until.ts";

const BASE_URL = "http://localhost:4321";
let sidecar: SidecarProcess;
let client: Client;

before(async () => {
  const dir = await tempDir("scale");
  await generateContent(join(dir, "content"), 10_000);
  const dist = join(dir, "dist");
  const run = await runBuild({
    CONTENT_DIR: join(dir, "content"),
    DIST_DIR: dist,
    BUILD_CACHE_DIR: join(dir, "cache"),
    BASE_URL,
  });
  assert.equal(run.code, 0, run.stderr);
  // Behind a proxy on loopback: X-Forwarded-For tells the readers apart, as clients behind nginx are.
  sidecar = await startSidecarProcess({
    DIST_DIR: dist,
    BASE_URL,
    DATA_DIR: join(dir, "data"),
    TRUST_PROXY: "loopback",
  });
  client = new Client({ name: "size-check", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sidecar.url}/mcp`)));
});
after(async () => {
  await client?.close();
  await sidecar?.stop();
});

const size = (answer: unknown) => Buffer.byteLength(JSON.stringify(answer));

test("every MCP tool result, resource read and prompt is at most 64 KiB", async () => {
  const sizes: Record<string, number> = {};
  const { tools } = await client.listTools();
  const calls: [string, Record<string, unknown>][] = [
    ["get_business", {}],
    ["search_reviews", { limit: 100 }],
    ["search_reviews", { query: "the", limit: 100 }],
    ["get_reviews_since", { date: "2000-01-01", limit: 100 }],
    ["get_reviews_since", { date: "2000-01-01" }],
    ["get_insights", {}],
  ];
  const sections = (
    tools.find((t) => t.name === "get_insights")?.inputSchema.properties?.section as { enum?: string[] } | undefined
  )?.enum;
  assert.ok(sections && sections.length > 0, "get_insights names its sections");
  for (const section of sections) calls.push(["get_insights", { section }]);
  const page = (await client.callTool({ name: "search_reviews", arguments: { limit: 1 } })) as {
    structuredContent: { reviews: { id: string }[] };
  };
  calls.push(["get_review", { id: page.structuredContent.reviews[0].id }]);
  for (const [name, args] of calls) {
    const result = await client.callTool({ name, arguments: args });
    assert.notEqual(result.isError, true, `${name} ${JSON.stringify(args)}`);
    sizes[`${name} ${JSON.stringify(args)}`] = size(result);
  }
  const { resources } = await client.listResources();
  assert.ok(
    resources.every((r) => typeof r.size === "number" && r.mimeType),
    "sizes and media types listed",
  );
  for (const r of resources) sizes[`read ${r.name}`] = size(await client.readResource({ uri: r.uri }));
  sizes["read review template"] = size(
    await client.readResource({ uri: `reviews://review/${page.structuredContent.reviews[0].id}` }),
  );
  const reviews = resources.find((r) => r.name === "reviews-dataset");
  assert.ok(reviews?.size && reviews.size > MCP_ANSWER_MAX_BYTES, "the dataset is larger than an answer");
  const business = (await client.callTool({ name: "get_business", arguments: {} })) as {
    structuredContent: { business: { technicians: { id: string }[] } };
  };
  const technician = business.structuredContent.business.technicians[0].id;
  const { prompts } = await client.listPrompts();
  for (const p of prompts) {
    const args: Record<string, string> = p.name.includes("technician")
      ? { technician }
      : { review_id: page.structuredContent.reviews[0].id };
    sizes[`prompt ${p.name}`] = size(await client.getPrompt({ name: p.name, arguments: args }));
  }
  const over = Object.entries(sizes).filter(([, n]) => n > MCP_ANSWER_MAX_BYTES);
  assert.deepEqual(over, [], JSON.stringify(sizes, null, 1));
});

async function rssKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
}

interface SlowReader {
  /** Resolves when the answer's headers have arrived: the server counts the answer as in flight. */
  responded: Promise<void>;
  /** The bytes read so far. */
  bytes(): number;
  /** Ends the request; `done` then resolves to the bytes read. */
  stop(): void;
  done: Promise<number>;
}

/** A GET that reads 16 KiB every 50 ms (a reader on a slow link: the slowness is what these tests are about). */
function slowRead(url: string, client: string): SlowReader {
  let got = 0;
  let tick: NodeJS.Timeout | undefined;
  let responded!: () => void;
  let finish!: (n: number) => void;
  const req = get(url, { headers: { "X-Forwarded-For": client } }, (res) => {
    res.pause();
    tick = setInterval(() => {
      const chunk = res.read(16 * 1024) as Buffer | null;
      if (chunk) got += chunk.length;
    }, 50);
    responded();
  });
  const done = new Promise<number>((resolve, reject) => {
    finish = resolve;
    req.on("error", (e) => (got > 0 || req.destroyed ? resolve(got) : reject(e)));
  });
  return {
    responded: new Promise<void>((r) => {
      responded = r;
    }),
    bytes: () => got,
    stop() {
      clearInterval(tick);
      req.destroy();
      finish(got);
    },
    done,
  };
}

test("20 slow readers of since/2000-01-01: the sidecar's memory stays bounded and it keeps answering probes", async () => {
  const pid = sidecar.child.pid as number;
  const url = `${sidecar.url}/api/reviews/since/2000-01-01`;
  const head = await fetch(url, { method: "HEAD" });
  const length = Number(head.headers.get("content-length"));
  assert.ok(length > 5_000_000, `the whole list is several MB (${length})`);
  await fetch(url).then((r) => r.arrayBuffer()); // warm: the page cache, the code
  const before = await rssKiB(pid);
  const readers = Array.from({ length: 20 }, (_, i) => slowRead(url, `192.0.2.${i + 1}`));
  // Every reader under way first (on a busy machine the first chunks can take a while), then six seconds of slow
  // reading, the load under test; the probes sample memory meanwhile and count the answers the sidecar gave while
  // the readers were still reading.
  await until("every reader's first chunk", () => readers.every((r) => r.bytes() > 0));
  let stopped = false;
  const reading = sleep(6_000).then(() => {
    stopped = true;
    for (const r of readers) r.stop();
  });
  let peak = before;
  let answeredWhileReading = 0;
  const probing = (async () => {
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${sidecar.url}/healthz`);
      await res.arrayBuffer();
      if (res.ok && !stopped) answeredWhileReading++;
      peak = Math.max(peak, await rssKiB(pid));
      await sleep(100); // the sampling interval, not a wait for anything
    }
  })();
  await reading;
  const got = await Promise.all(readers.map((r) => r.done));
  await probing;
  const growthMb = (peak - before) / 1024;
  assert.ok(
    got.every((n) => n > 0 && n < length),
    "each reader got part of the answer, not all",
  );
  // Answers held whole would cost 20 x the answer; streamed, the growth is chunks, socket buffers and the heap's
  // young generation (up to 24 MB with the start script's --max-semi-space-size=8). The bench holds the aim
  // (64 MB with 50 readers at 100k); this bound only tells streaming from holding.
  const wholeMb = (20 * length) / 2 ** 20;
  assert.ok(
    growthMb < 0.6 * wholeMb,
    `RSS grew ${growthMb.toFixed(1)} MB with 20 slow readers (whole answers: ${wholeMb.toFixed(0)} MB)`,
  );
  // The readers do not hold the sidecar up: it kept answering probes while they read. (How quickly is the bench's
  // to measure; on a machine busy with other work a probe's latency says more about the machine.)
  assert.ok(answeredWhileReading >= 2, `probes answered while the readers read: ${answeredWhileReading}`);
});

test("one client with more large answers in flight than allowed gets 429 and a Retry-After; pages are not counted", async () => {
  const url = `${sidecar.url}/api/reviews/since/2000-01-01`;
  const held = Array.from({ length: 4 }, () => slowRead(url, "198.51.100.7"));
  await Promise.all(held.map((h) => h.responded));
  const refused = await fetch(url, { headers: { "X-Forwarded-For": "198.51.100.7" } });
  assert.equal(refused.status, 429);
  const wait = Number(refused.headers.get("retry-after"));
  assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
  assert.equal(refused.headers.get("etag"), null);
  await refused.arrayBuffer();
  const page = await fetch(`${url}?limit=100`, { headers: { "X-Forwarded-For": "198.51.100.7" } });
  assert.equal(page.status, 200, "a page is small: never refused");
  await page.arrayBuffer();
  const other = await fetch(url, { method: "HEAD", headers: { "X-Forwarded-For": "198.51.100.8" } });
  assert.equal(other.status, 200);
  for (const h of held) h.stop();
  await Promise.all(held.map((h) => h.done));
  // The server learns that the answers ended when it sees their connections close, a moment after they do.
  await until("the cap to free once the client's answers end", async () => {
    const again = await fetch(url, { headers: { "X-Forwarded-For": "198.51.100.7" } });
    await again.arrayBuffer();
    return again.status === 200;
  });
});

test("slow readers of a large file range and of a large since page get every byte, whatever the keep-alive", async () => {
  // The kernel's socket buffers take most of such a body at once, so the sidecar hands over its last byte long
  // before a slow reader has read it; a kept-alive connection it then closes as idle makes undici (Node's fetch)
  // report "other side closed" and drop the body's end. Both bodies take a reader at 64 KiB/s (a phone on a poor
  // network) seconds longer to read than the keep-alive timeout.
  const file = `${sidecar.url}/reviews.json`;
  const page = `${sidecar.url}/api/reviews/since/2000-01-01?limit=1000`;
  const range = "bytes=0-1048575";
  const fileStart = await fetch(file, { headers: { Range: range } }).then(async (r) =>
    Buffer.from(await r.arrayBuffer()),
  );
  const pageBytes = await fetch(page).then(async (r) => Buffer.from(await r.arrayBuffer()));
  assert.equal(fileStart.length, 1 << 20);
  assert.ok(pageBytes.length > 512 * 1024, `a page of 1000 reviews is large (${pageBytes.length} bytes)`);
  const readSlowlyWhole = async (url: string, headers: Record<string, string>, i: number) => {
    const agent = new Agent({ connections: 1 });
    const chunks: Buffer[] = [];
    try {
      const res = await request(url, {
        dispatcher: agent,
        headers: { ...headers, "X-Forwarded-For": `203.0.113.${i}` },
      });
      await readSlowly(
        (async function* () {
          for await (const chunk of res.body) {
            chunks.push(chunk);
            yield chunk;
          }
        })(),
        64 * 1024,
      );
      return Buffer.concat(chunks);
    } catch (e) {
      return `reader ${i} of ${url} cut after ${Buffer.concat(chunks).length} bytes: ${(e as Error).message}`;
    } finally {
      await agent.close();
    }
  };
  const got = await Promise.all([
    ...[1, 2, 3].map((i) => readSlowlyWhole(file, { Range: range, "Accept-Encoding": "identity" }, i)),
    ...[4, 5, 6].map((i) => readSlowlyWhole(page, {}, i)),
  ]);
  const cut = got.filter((g) => typeof g === "string");
  assert.deepEqual(cut, [], "every reader read to the end");
  for (const g of got.slice(0, 3)) assert.ok(fileStart.equals(g as Buffer), "the range's bytes");
  for (const g of got.slice(3)) assert.ok(pageBytes.equals(g as Buffer), "the page's bytes");
});
