// npm run bench [-- --quick]: build, HTTP, MCP, hub and memory measurements, each against a baseline
// measured in the same run; writes bench/RESULTS.md. Loopback only.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { CallbackServer, until } from "../tests/helpers/callback-server.ts";
import { hubRequest, subscriptions } from "../tests/helpers/hub-fixture.ts";
import { deploy, type SidecarProcess, startSidecarProcess } from "../tests/helpers/sidecar-process.ts";
import { makeTestPki } from "../tests/helpers/tls.ts";
import { pipelineAbuseBench } from "./abuse.ts";
import { generateContent } from "./generate.ts";
import { sharedHubBench } from "./hub-shared.ts";
import { incrementalBench } from "./incremental.ts";
import { type LoadResult, load, median, medianOf } from "./lib/load.ts";
import { mcpSearchReport, mcpSoakReport } from "./mcp.ts";
import { reloadBench } from "./reload.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const WORK = join(ROOT, "bench/.work");
const quick = process.argv.includes("--quick");
const SIZES = quick ? [1000, 10000] : [1000, 10000, 100000];
const RUNS = quick ? 1 : 3;
const DURATION = quick ? 2 : 5;
const FANOUT = quick ? [1000] : [1000, 10000];
const BASE = "http://localhost:4321";
const report: string[] = [];
const log = (...a: unknown[]) => console.error("[bench]", ...a);

const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "n/a");
const table = (head: string[], rows: (string | number)[][]) =>
  [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join(
    "\n",
  );

function node(args: string[], env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function startBaseline(size: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(ROOT, "bench/baseline-server.ts"), String(size)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve) =>
    child.stdout?.once("data", (d) => resolve(JSON.parse(String(d)).url)),
  );
  return { url, child };
}

async function measure(
  url: string,
  extra: Parameters<typeof load>[0] extends infer O ? Partial<O> : never = {},
): Promise<LoadResult> {
  const runs: LoadResult[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await load({ url, durationS: DURATION, ...extra }));
  return medianOf(runs);
}

// 1. Content and build times -----------------------------------------------------------------------------
const PHASES = [
  "read",
  "validate",
  "analyse",
  "insights",
  "serialise",
  "astro",
  "astro_total",
  "search_index",
  "manifest_and_compression",
];
const phasesOf = (runs: Record<string, number>[]) =>
  PHASES.map((p) => `${p} ${fmt(median(runs.map((t) => t[p] ?? Number.NaN)) / 1000)}`).join(", ");

async function buildBench(): Promise<Map<number, string>> {
  const dists = new Map<number, string>();
  const rows: (string | number)[][] = [];
  const rebuilds: (string | number)[][] = [];
  for (const n of SIZES) {
    const content = join(WORK, `content-${n}`);
    if (!existsSync(join(content, ".complete"))) {
      log(`generating ${n} reviews`);
      await generateContent(content, n);
      await writeFile(join(content, ".complete"), "");
    }
    const dist = join(WORK, `dist-${n}`);
    const ours: Record<string, number>[] = [];
    const base: number[] = [];
    const cache = join(WORK, `cache-${n}`);
    const build = (distDir = dist) => {
      const out = node(["scripts/build.ts", "--timings"], {
        CONTENT_DIR: content,
        DIST_DIR: distDir,
        BASE_URL: BASE,
        BUILD_CACHE_DIR: cache,
      });
      return JSON.parse(out.trim().split("\n").at(-1) as string).timings as Record<string, number>;
    };
    for (let i = 0; i < RUNS; i++) {
      log(`build ${n} run ${i + 1}`);
      await rm(cache, { recursive: true, force: true }); // a full build: nothing cached
      ours.push(build());
      const b = node(["bench/baseline-build.ts", content, join(WORK, `baseline-dist-${n}`)]);
      base.push(JSON.parse(b.trim()).total);
    }
    const total = median(ours.map((t) => t.total));
    const insights = median(ours.map((t) => t.insights));
    const withoutInsights = median(ours.map((t) => t.total - t.insights));
    const baseline = median(base);
    const phases = phasesOf(ours);
    rows.push([
      n,
      fmt(total / 1000),
      fmt(withoutInsights / 1000),
      fmt(insights / 1000),
      fmt(baseline / 1000),
      `${fmt(withoutInsights / baseline, 2)}x`,
      phases,
    ]);
    log(`rebuild ${n} after one changed review`);
    const re = await incrementalBench(content, () => build(`${dist}-next`));
    rebuilds.push([
      n,
      fmt(re.totalMs / 1000),
      re.analysed,
      re.fromCache,
      fmt(total / re.totalMs, 1),
      phasesOf([re.timings]),
    ]);
    dists.set(n, dist);
  }
  report.push(
    "## Build time (seconds, median)",
    "",
    "Baseline: `bench/baseline-build.ts` reads the same files and writes reviews.json and feed.json with plain JSON.stringify. Ratio = our build without the insights phase / baseline. Astro bundles while the reviews are analysed: astro = what the build waited for Astro once the data was ready, astro_total = Astro's whole run.",
    "",
    table(["reviews", "build", "build without insights", "insights alone", "baseline", "ratio", "phases (s)"], rows),
    "",
    "## Rebuild after one changed review (incremental cache warm from the full build)",
    "",
    table(
      ["reviews", "rebuild s", "reviews analysed", "from the cache", "full build / rebuild", "phases (s)"],
      rebuilds,
    ),
    "",
  );
  return dists;
}

// 2. HTTP at the largest size -----------------------------------------------------------------------------
async function httpBench(dist: string, n: number) {
  // LOG_LEVEL=warn: no request log lines while measuring (the baseline logs nothing either).
  const sidecar = await startSidecarProcess({
    DIST_DIR: dist,
    DATA_DIR: join(WORK, "data-http"),
    BASE_URL: BASE,
    LOG_LEVEL: "warn",
    PORT: String(await freePort()),
  });
  try {
    const dataset = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8"));
    const tech = dataset.business.technicians[0].id;
    const searches: [string, string][] = [
      ["no filter", ""],
      ["rating=5", "rating=5"],
      ["query, common word", "query=great"],
      ["query, rare word", "query=grinding"],
      ["since+until range", "since=2020-01-01&until=2020-03-31"],
      ["technician", `mentions_technician=${tech}`],
    ];
    const rows: (string | number)[][] = [];
    for (const [name, qs] of searches) {
      const url = `${sidecar.url}/api/reviews/search?${qs}`;
      const size = (await (await fetch(url)).arrayBuffer()).byteLength;
      log(`search ${name}`);
      const ours = await measure(url);
      const baseline = await startBaseline(size);
      const base = await measure(baseline.url);
      baseline.child.kill();
      rows.push([
        name,
        size,
        fmt(ours.rps, 0),
        fmt(ours.p50),
        fmt(ours.p99),
        fmt(base.rps, 0),
        `${fmt(ours.rps / base.rps, 2)}x`,
        ours.non2xx + ours.errors,
      ]);
    }
    report.push(
      `## Search at ${n} reviews (16 connections, ${DURATION} s x ${RUNS} runs, medians)`,
      "",
      "Baseline: a bare node:http server answering a precomputed body of the same size.",
      "",
      table(["filter", "body bytes", "req/s", "p50 ms", "p99 ms", "baseline req/s", "ratio", "errors"], rows),
      "",
    );

    const sinceUrl = `${sidecar.url}/api/reviews/since/2026-10-01`;
    const etag = (await fetch(sinceUrl)).headers.get("etag") as string;
    log("since");
    const since200 = await measure(sinceUrl);
    const since304 = await measure(sinceUrl, { headers: { "If-None-Match": etag } });
    const empty = await startBaseline(0);
    const base0 = await measure(empty.url);
    empty.child.kill();
    report.push(
      "## Since",
      "",
      table(
        ["request", "req/s", "p50 ms", "p99 ms", "ratio to bare node:http (empty body)"],
        [
          [
            "since 2026-10-01, 200",
            fmt(since200.rps, 0),
            fmt(since200.p50),
            fmt(since200.p99),
            `${fmt(since200.rps / base0.rps, 2)}x`,
          ],
          [
            "same with matching If-None-Match, 304",
            fmt(since304.rps, 0),
            fmt(since304.p50),
            fmt(since304.p99),
            `${fmt(since304.rps / base0.rps, 2)}x`,
          ],
          ["bare node:http baseline", fmt(base0.rps, 0), fmt(base0.p50), fmt(base0.p99), "1.00x"],
        ],
      ),
      "",
    );

    log("reviews.json vs nginx");
    const datasetUrl = `${sidecar.url}/reviews.json`;
    const dEtag = (await fetch(datasetUrl, { headers: { "Accept-Encoding": "br" } })).headers.get("etag") as string;
    const ours200 = await measure(datasetUrl, { headers: { "Accept-Encoding": "br" }, connections: 4 });
    const ours304 = await measure(datasetUrl, { headers: { "Accept-Encoding": "br", "If-None-Match": dEtag } });
    const nginx = await startNginx(dist);
    let nginxRows: (string | number)[][] = [["nginx", "not available", "", "", ""]];
    if (nginx) {
      const nUrl = `${nginx.url}/reviews.json`;
      const nEtag = (await fetch(nUrl, { headers: { "Accept-Encoding": "br" } })).headers.get("etag") as string;
      const n200 = await measure(nUrl, { headers: { "Accept-Encoding": "br" }, connections: 4 });
      const n304 = await measure(nUrl, { headers: { "Accept-Encoding": "br", "If-None-Match": nEtag } });
      nginx.stop();
      nginxRows = [
        [
          "200 (br)",
          fmt(ours200.rps, 1),
          fmt(n200.rps, 1),
          `${fmt(ours200.rps / n200.rps, 2)}x`,
          `${fmt(ours200.p99)} / ${fmt(n200.p99)}`,
        ],
        [
          "304",
          fmt(ours304.rps, 0),
          fmt(n304.rps, 0),
          `${fmt(ours304.rps / n304.rps, 2)}x`,
          `${fmt(ours304.p99)} / ${fmt(n304.p99)}`,
        ],
      ];
    }
    report.push(
      `## GET /reviews.json at ${n} reviews: sidecar against nginx serving the same files`,
      "",
      "nginx-light from Debian with `gzip_static`/precompressed files off (it serves the identity bytes; the sidecar serves the precompressed br variant when asked), ETag on.",
      "",
      table(["response", "sidecar req/s", "nginx req/s", "ratio", "p99 ms sidecar / nginx"], nginxRows),
      "",
    );

    log("MCP vs REST");
    report.push(...(await mcpSearchReport(sidecar.url, measure, { table, fmt })));
  } finally {
    await sidecar.stop();
  }
}

async function startNginx(dist: string): Promise<{ url: string; stop: () => void } | undefined> {
  if (!existsSync("/usr/sbin/nginx")) {
    log("installing nginx-light");
    const apt = spawnSync(
      "bash",
      [
        "-c",
        "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null)",
      ],
      { stdio: "inherit" },
    );
    if (apt.status !== 0 || !existsSync("/usr/sbin/nginx")) return undefined;
  }
  const prefix = join(WORK, "nginx");
  await rm(prefix, { recursive: true, force: true });
  await mkdir(join(prefix, "logs"), { recursive: true });
  const port = 20000 + Math.floor(Math.random() * 20000);
  await writeFile(
    join(prefix, "nginx.conf"),
    `worker_processes 1; daemon off; error_log ${prefix}/logs/error.log; pid ${prefix}/nginx.pid;
events { worker_connections 1024; }
http { access_log off; sendfile on; etag on; types { application/json json; }
  server { listen 127.0.0.1:${port}; root ${dist}; } }`,
  );
  const child = spawn("/usr/sbin/nginx", ["-p", prefix, "-c", join(prefix, "nginx.conf")], { stdio: "ignore" });
  await until(
    "nginx",
    async () => (await fetch(`http://127.0.0.1:${port}/reviews.json`, { method: "HEAD" }).catch(() => undefined))?.ok,
  );
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

// 3. Memory, start and hot reload per size (bench/reload.ts) -------------------------------------------------
async function processBench(dists: Map<number, string>) {
  const rows: (string | number)[][] = [];
  for (const [n, dist] of dists) {
    log(`start and reload under load at ${n}`);
    const r = await reloadBench(dist, `${dist}-next`, join(WORK, `reload-${n}`), BASE);
    const x = (mb: number) => `${fmt(mb, 0)} (${fmt(mb / r.reviewsJsonMb, 1)}x)`;
    rows.push([
      n,
      fmt(r.reviewsJsonMb, 1),
      r.startMs,
      x(r.rssMb),
      r.switchMs,
      `${fmt(r.stallMaxMs)} (${fmt(r.idleStallMaxMs)})`,
      `${fmt(r.probeP99Ms)} (${fmt(r.idleProbeP99Ms)}) / ${fmt(r.probeMaxMs)}, ${r.probes}`,
      x(r.rssPeakMb),
      x(r.rssAfterMb),
    ]);
  }
  report.push(
    "## Sidecar memory, start and hot reload under load",
    "",
    "Start = spawn to listening (load and verify every file, open the search index). RSS after a few searches and one GET /reviews.json. Hot reload = another build (one review changed) renamed into place to `build.switched` logged (includes the 250 ms poll) while a probe sends searches one after another; the figures in brackets are the same probes for as long without a reload (what the shared machine alone costs); stall = longest event-loop delay inside the sidecar during the reload (`monitorEventLoopDelay`, preloaded by `bench/lib/loop-monitor.ts`); RSS peak sampled after each probe.",
    "",
    table(
      [
        "reviews",
        "reviews.json MB",
        "start ms",
        "RSS MB (x json)",
        "hot reload ms",
        "longest stall ms (without reload)",
        "probe p99 (without reload) / max ms, probes",
        "RSS peak during reload",
        "RSS after reload",
      ],
      rows,
    ),
    "",
  );
}

// 4. Hub fan-out ---------------------------------------------------------------------------------------------
async function fanoutBench() {
  const pki = await makeTestPki();
  const variantContent = join(WORK, "content-variant");
  await cp(join(ROOT, "content"), variantContent, { recursive: true, force: true });
  await writeFile(
    join(variantContent, "reviews/2026/zz-bench.json"),
    JSON.stringify({ rating: 5, date: "2026-11-21", text: "Bench variant.", author: "B. B.", verified: true }),
  );
  const distA = join(WORK, "fan-a");
  const distB = join(WORK, "fan-b");
  node(["scripts/build.ts"], { CONTENT_DIR: join(ROOT, "content"), DIST_DIR: distA, BASE_URL: BASE });
  node(["scripts/build.ts"], { CONTENT_DIR: variantContent, DIST_DIR: distB, BASE_URL: BASE });
  const rows: (string | number)[][] = [];
  for (const n of FANOUT) {
    const served = join(WORK, `fan-served-${n}`);
    await rm(served, { recursive: true, force: true });
    await cp(distA, served, { recursive: true });
    const dataDir = join(WORK, `fan-data-${n}`);
    await rm(dataDir, { recursive: true, force: true });
    const cb = await CallbackServer.start(pki);
    let sidecar: SidecarProcess | undefined;
    try {
      sidecar = await startSidecarProcess({
        DIST_DIR: served,
        DATA_DIR: dataDir,
        BASE_URL: BASE,
        NODE_EXTRA_CA_CERTS: pki.caFile,
        HUB_CALLBACK_ALLOWLIST: "127.0.0.0/8",
        HUB_RATE_LIMIT_PER_CLIENT: "1000000",
        HUB_RATE_LIMIT_PER_CALLBACK_HOST: "1000000",
        HUB_VERIFY_QUEUE_MAX: "1000000",
        HUB_VERIFY_QUEUE_MAX_PER_HOST: "1000000",
        LOG_LEVEL: "info",
      });
      const s = sidecar;
      const paths = Array.from({ length: n }, (_, i) => `/f/${i}`);
      log(`subscribing ${n}`);
      for (let i = 0; i < n; i += 100) {
        await Promise.all(
          paths.slice(i, i + 100).map((p) =>
            hubRequest(s.url, {
              "hub.mode": "subscribe",
              "hub.topic": `${BASE}/api/feed.json`,
              "hub.callback": cb.url(p),
            }),
          ),
        );
      }
      await until(`${n} verified`, () => subscriptions(dataDir).length === n, 600_000);
      await deploy(distB, served);
      const switched = await until("switch", () => s.logs.find((l) => l.event === "build.switched"), 60_000);
      await until(`${n} delivered`, () => cb.received.filter((r) => r.method === "POST").length >= n, 600_000);
      const last = Math.max(...cb.received.filter((r) => r.method === "POST").map((r) => r.at));
      const oursMs = last - Number(switched.time);
      const body = await readFile(join(distB, "api/feed.json"));
      const agent = new Agent({ connections: 8, connect: { ca: await readFile(pki.caFile) } });
      const t0 = Date.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < n) {
            const p = paths[next++];
            const r = await request(cb.url(p), {
              method: "POST",
              body,
              headers: { "Content-Type": "application/json" },
              dispatcher: agent,
            });
            await r.body.dump();
          }
        }),
      );
      const baseMs = Date.now() - t0;
      await agent.close();
      rows.push([n, oursMs, baseMs, `${fmt(oursMs / baseMs, 2)}x`]);
    } finally {
      await sidecar?.stop();
      await cb.close();
    }
  }
  report.push(
    "## Hub fan-out of one change (JSON Feed topic, HTTPS subscribers on loopback)",
    "",
    "Ours: from `build.switched` to the last delivery received. Baseline: plain undici POSTs of the same body to the same callbacks, 8 at a time (the hub's per-host limit; all callbacks share one host).",
    "",
    table(["subscribers", "hub ms", "baseline ms", "ratio"], rows),
    "",
  );
}

// MCP memory under load (issue 11): one session, many requests, RSS sampled (bench/mcp.ts).
async function mcpSoakBench(dist: string) {
  log("MCP soak");
  const sidecar = await startSidecarProcess({
    DIST_DIR: dist,
    DATA_DIR: join(WORK, "data-soak"),
    BASE_URL: BASE,
    LOG_LEVEL: "warn",
    PORT: String(await freePort()),
  });
  try {
    report.push(...(await mcpSoakReport(sidecar.url, sidecar.child.pid, 30_000, { table, fmt })));
  } finally {
    await sidecar.stop();
  }
}

await mkdir(WORK, { recursive: true });
const started = new Date();
const dists = await buildBench();
const largest = Math.max(...SIZES);
await httpBench(dists.get(largest) as string, largest);
await processBench(dists);
await mcpSoakBench(dists.get(Math.min(...SIZES)) as string);
await fanoutBench();
report.push(...(await pipelineAbuseBench(dists.get(10000) as string, 10000, await freePort())));
report.push(...(await sharedHubBench({ work: WORK, sizes: FANOUT.slice(-1), log })));
const header = [
  "# Benchmark results",
  "",
  `Run: ${started.toISOString()}${quick ? " (--quick: fewer sizes, 1 run each, 2 s loads)" : ""}; machine: ${cpus().length} x ${cpus()[0]?.model}, ${fmt(totalmem() / 2 ** 30, 0)} GiB; Node ${process.version}.`,
  "Absolute numbers on this shared machine are noisy; read the ratios against the baselines measured in the same run.",
  "",
];
await writeFile(join(ROOT, "bench/RESULTS.md"), `${[...header, ...report].join("\n")}\n`);
console.log([...header, ...report].join("\n"));
