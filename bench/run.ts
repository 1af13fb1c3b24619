// npm run bench [-- --quick] [-- --only=<sections> [--dist=<dir>]]: build, HTTP, MCP, hub and memory
// measurements, each against a baseline measured in the same run; writes bench/RESULTS.md. Loopback only.
// --only runs the named sections alone (comma-separated: build, analysis, search, since, reviews.json, mcp,
// mixed, paired, process, soak, fanout, abuse, hub) and prints their tables without writing RESULTS.md;
// --dist=<dir> measures that build (e.g. a dist of 100,000 reviews built before) instead of generating content
// and building it. analysis (the build's per-review analysis on one thread, part of the build section) needs no
// build. paired needs --old=<checkout of other code, npm installed>: its sidecar against this one on the same
// build. --cpu-prof=<dir>: the mixed section's sidecars write CPU profiles there. --mixed-load-only: the mixed
// section without since/2000-01-01 alone (to measure one change to the mixed load at a time).
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MANIFEST_FILE } from "../src/domain/schemas/manifest.ts";
import { until } from "../tests/helpers/callback-server.ts";
import { freePort } from "../tests/helpers/free-port.ts";
import { nginxConfig } from "../tests/helpers/nginx.ts";
import { type SidecarProcess, startSidecarProcess } from "../tests/helpers/sidecar-process.ts";
import { makeTestPki } from "../tests/helpers/tls.ts";
import { pipelineAbuseBench } from "./abuse.ts";
import type { AnalysisRate } from "./analysis-rate.ts";
import { generateContent } from "./generate.ts";
import { type FanoutRow, fanoutBuilds, fanoutReport, fanoutRun } from "./hub-fanout.ts";
import { sharedHubBench } from "./hub-shared.ts";
import { incrementalBench } from "./incremental.ts";
import { childPids } from "./lib/cpu.ts";
import { type LoadResult, measureRounds, median } from "./lib/load.ts";
import { insideStats } from "./lib/probe.ts";
import { mcpSearchReport, mcpSoakReport } from "./mcp.ts";
import { mixedLoad, mixedReport, sinceAlone, sinceAloneReport } from "./mixed.ts";
import { pairedBench, pairedReport } from "./paired.ts";
import { reloadBench } from "./reload.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const WORK = join(ROOT, "bench/.work");
const quick = process.argv.includes("--quick");
const argValue = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) as string | undefined;
const SECTIONS = [
  "build",
  "analysis",
  "search",
  "since",
  "reviews.json",
  "mcp",
  "mixed",
  "paired",
  "process",
  "soak",
  "fanout",
  "abuse",
  "hub",
];
const only = argValue("only")?.split(",");
const unknown = only?.filter((s) => !SECTIONS.includes(s)) ?? [];
if (unknown.length) throw new Error(`--only: no section ${unknown.join(", ")} (sections: ${SECTIONS.join(", ")})`);
const wanted = (section: string) => only === undefined || only.includes(section);
const givenDist = argValue("dist");
const oldRoot = argValue("old");
const cpuProf = argValue("cpu-prof");
const mixedLoadOnly = process.argv.includes("--mixed-load-only");
if (only?.includes("paired") && !oldRoot)
  throw new Error("--only=paired needs --old=<a checkout of the code to compare with, npm installed>");
// The reload measurement deploys another build of the same size over the given one: DIR-next (a build of the same
// content with one review changed, as the build section leaves next to each dist). Said before anything runs.
if (givenDist && wanted("process") && !existsSync(`${givenDist}-next`))
  throw new Error(
    `--dist=${givenDist} with the process section needs ${givenDist}-next too: another build of the same content (e.g. with one review changed), deployed over it to measure a reload`,
  );
const SIZES = quick ? [1000, 10000] : [1000, 10000, 100000];
const RUNS = quick ? 1 : 3;
const DURATION = quick ? 2 : 5;
const FANOUT = quick ? [1000] : [1000, 10000];
const MIXED_S = quick ? 20 : 120;
const AFTER_S = quick ? 15 : 30;
const PAIRED = quick ? { rounds: 2, durationS: 2 } : { rounds: 5, durationS: 5 };
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

async function startBaseline(size: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(ROOT, "bench/baseline-server.ts"), String(size)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve) =>
    child.stdout?.once("data", (d) => resolve(JSON.parse(String(d)).url)),
  );
  return { url, child };
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
  "data_files",
  "pages",
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
      const last = JSON.parse(out.trim().split("\n").at(-1) as string);
      return { timings: last.timings as Record<string, number>, path: last.path as string };
    };
    for (let i = 0; i < RUNS; i++) {
      log(`build ${n} run ${i + 1}`);
      await rm(cache, { recursive: true, force: true }); // a full build: nothing cached
      ours.push(build().timings);
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
      re.path,
      fmt(total / re.totalMs, 1),
      phasesOf([re.timings]),
    ]);
    dists.set(n, dist);
  }
  report.push(
    "## Build time (seconds, median)",
    "",
    "Baseline: `bench/baseline-build.ts` reads the same files and writes reviews.json and feed.json with plain JSON.stringify. Ratio = our build without the insights phase / baseline. Our times count from the process start (`--timings`' total: Node's start and loading the build's code included); the baseline's from its first line. Astro bundles while the reviews are analysed: astro = what the build waited for Astro once the data was ready, astro_total = Astro's whole run.",
    "",
    table(["reviews", "build", "build without insights", "insights alone", "baseline", "ratio", "phases (s)"], rows),
    "",
    "## Rebuild after one changed review (incremental cache warm from the full build)",
    "",
    "Counted from the process start, as the builds above. path: data-only = the Astro bundle kept by the full build was reused (Astro not run); full = Astro bundled.",
    "",
    table(
      ["reviews", "rebuild s", "reviews analysed", "from the cache", "path", "full build / rebuild", "phases (s)"],
      rebuilds,
    ),
    "",
  );
  return dists;
}

const ANALYSIS_REVIEWS = 10_000;
const ANALYSIS_PASSES = quick ? 3 : 5;

async function analysisBench() {
  log("analysis per review, one thread");
  const { reviews, passes } = JSON.parse(
    node(["bench/analysis-rate.ts", String(ANALYSIS_REVIEWS), String(ANALYSIS_PASSES)]),
  ) as AnalysisRate;
  const rate = (x: number) => Math.round(x).toLocaleString("en");
  report.push(
    "## Analysis per review, one thread (reviews per CPU-second)",
    "",
    `What the build's analysis phase does for each review not in its cache (\`bench/analysis-rate.ts\`: mentions, analyzeText, the published record, the insight parts, the cache line), over ${rate(reviews)} generated reviews, ${passes.length} passes after two warm-up ones, each with a fresh analyser. \`npm run eval\`'s throughput line measures analyzeText alone (labels, score and aspects of the text), so it reads higher. Aim: 10,000 per core.`,
    "",
    table(
      ["reviews", "median", "range"],
      [[reviews, rate(median(passes)), `${rate(Math.min(...passes))}-${rate(Math.max(...passes))}`]],
    ),
    "",
  );
}

// 2. HTTP at the largest size -----------------------------------------------------------------------------
async function httpBench(dist: string, n: number) {
  if (!["search", "since", "reviews.json", "mcp"].some(wanted)) return;
  // LOG_LEVEL=warn: no request log lines while measuring (the baseline logs nothing either).
  const sidecar = await startSidecarProcess({
    DIST_DIR: dist,
    DATA_DIR: join(WORK, "data-http"),
    BASE_URL: BASE,
    LOG_LEVEL: "warn",
    PORT: String(await freePort()),
  });
  try {
    if (wanted("search")) await searchSection(sidecar.url, dist, n);
    if (wanted("since")) await sinceSection(sidecar.url);
    if (wanted("reviews.json")) await reviewsJsonSection(sidecar, dist, n);
    if (wanted("mcp")) {
      log("MCP vs REST");
      const runs = { rounds: RUNS, durationS: DURATION };
      report.push(...(await mcpSearchReport(sidecar.url, sidecar.child.pid as number, runs, { table, fmt })));
    }
  } finally {
    await sidecar.stop();
  }
}

async function searchSection(url: string, dist: string, n: number) {
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
    const searchUrl = `${url}/api/reviews/search?${qs}`;
    const size = (await (await fetch(searchUrl)).arrayBuffer()).byteLength;
    log(`search ${name}`);
    const baseline = await startBaseline(size);
    // In rounds (ours, then the bare server): each ratio within a round, then the median (bench/lib/load.ts).
    const { ours, base } = await measureRounds(
      { ours: { url: searchUrl }, base: { url: baseline.url } },
      "base",
      RUNS,
      DURATION,
    );
    baseline.child.kill();
    rows.push([
      name,
      size,
      fmt(ours.rps, 0),
      fmt(ours.p50),
      fmt(ours.p99),
      fmt(base.rps, 0),
      `${fmt(ours.ratio, 2)}x`,
      ours.non2xx + ours.errors,
    ]);
  }
  report.push(
    `## Search at ${n} reviews (16 connections, ${RUNS} rounds of ${DURATION} s, medians)`,
    "",
    "For information, no longer an aim: a bare node:http server answering a precomputed body of the same size as the baseline. Each round measures the sidecar, then the baseline; the ratio is taken within a round. Latency under many clients is measured in the mixed and paired sections.",
    "",
    table(["filter", "body bytes", "req/s", "p50 ms", "p99 ms", "baseline req/s", "ratio", "errors"], rows),
    "",
  );
}

async function sinceSection(url: string) {
  const sinceUrl = `${url}/api/reviews/since/2026-10-01`;
  const etag = (await fetch(sinceUrl)).headers.get("etag") as string;
  log("since");
  const empty = await startBaseline(0);
  // In rounds (200, 304, bare): each ratio is taken within a round, then the median (bench/lib/load.ts).
  const r = await measureRounds(
    {
      since200: { url: sinceUrl },
      since304: { url: sinceUrl, headers: { "If-None-Match": etag } },
      base0: { url: empty.url },
    },
    "base0",
    RUNS,
    DURATION,
  );
  empty.child.kill();
  const { since200, since304, base0 } = r;
  report.push(
    "## Since (16 connections)",
    "",
    "The ratio to a bare node:http server is for information, no longer an aim.",
    "",
    table(
      ["request", "req/s", "p50 ms", "p99 ms", "ratio to bare node:http (empty body), within a round"],
      [
        [
          "since 2026-10-01, 200",
          fmt(since200.rps, 0),
          fmt(since200.p50),
          fmt(since200.p99),
          `${fmt(since200.ratio, 2)}x`,
        ],
        [
          "same with matching If-None-Match, 304",
          fmt(since304.rps, 0),
          fmt(since304.p50),
          fmt(since304.p99),
          `${fmt(since304.ratio, 2)}x`,
        ],
        ["bare node:http baseline", fmt(base0.rps, 0), fmt(base0.p50), fmt(base0.p99), "1.00x"],
      ],
    ),
    "",
  );
}

async function reviewsJsonSection(sidecar: SidecarProcess, dist: string, n: number) {
  log("reviews.json vs nginx");
  const br = { "Accept-Encoding": "br" };
  const datasetUrl = `${sidecar.url}/reviews.json`;
  const dEtag = (await fetch(datasetUrl, { headers: br })).headers.get("etag") as string;
  const nginx = await startNginx(dist, new URL(sidecar.url).host);
  if (!nginx) {
    report.push(`## GET /reviews.json at ${n} reviews: nginx not available`, "");
    return;
  }
  const nUrl = `${nginx.url}/reviews.json`;
  const nEtag = (await fetch(nUrl, { headers: br })).headers.get("etag") as string;
  // In rounds (sidecar, then nginx): the ratio of each round, then the median (bench/lib/load.ts).
  const ok = await measureRounds(
    { ours: { url: datasetUrl, headers: br, connections: 4 }, nginx: { url: nUrl, headers: br, connections: 4 } },
    "nginx",
    RUNS,
    DURATION,
  );
  const notModified = await measureRounds(
    {
      ours: { url: datasetUrl, headers: { ...br, "If-None-Match": dEtag }, serverPids: [sidecar.child.pid as number] },
      nginx: { url: nUrl, headers: { ...br, "If-None-Match": nEtag }, serverPids: nginx.pids() },
    },
    "nginx",
    RUNS,
    DURATION,
  );
  nginx.stop();
  const cpu = (r: LoadResult) => `${fmt(r.serverUs)} (${fmt(r.serverSystemUs)}) / ${fmt(r.clientUs)}`;
  report.push(
    `## GET /reviews.json at ${n} reviews: sidecar against nginx serving the same files (${RUNS} rounds of ${DURATION} s, medians)`,
    "",
    "For information, no longer an aim (in production nginx or a CDN sends the static files). nginx-light from Debian with the project's own configuration (`npm run nginx-config -- --standalone`: the same headers as the sidecar, the build's precompressed br variant, ETag and Last-Modified), so both send the same answer. Each round measures the sidecar, then nginx; the ratio is taken within a round. CPU per answered 304: of the server (/proc; nginx's master and worker; in brackets the kernel part) and of the load generator (autocannon, in the bench process).",
    "",
    table(
      [
        "response",
        "sidecar req/s",
        "nginx req/s",
        "ratio",
        "p99 ms sidecar / nginx",
        "CPU us/req sidecar (kernel) / load generator",
        "CPU us/req nginx (kernel) / load generator",
      ],
      [
        [
          "200 (br)",
          fmt(ok.ours.rps, 1),
          fmt(ok.nginx.rps, 1),
          `${fmt(ok.ours.ratio, 2)}x`,
          `${fmt(ok.ours.p99)} / ${fmt(ok.nginx.p99)}`,
          "",
          "",
        ],
        [
          "304",
          fmt(notModified.ours.rps, 0),
          fmt(notModified.nginx.rps, 0),
          `${fmt(notModified.ours.ratio, 2)}x`,
          `${fmt(notModified.ours.p99)} / ${fmt(notModified.nginx.p99)}`,
          cpu(notModified.ours),
          cpu(notModified.nginx),
        ],
      ],
    ),
    "",
  );
}

/**
 * nginx as the project configures it (npm run nginx-config -- --standalone: the sidecar's headers on every
 * static file, the build's precompressed siblings, its validators), so both sides send the same answer.
 */
async function startNginx(
  dist: string,
  upstream: string,
): Promise<{ url: string; pids: () => number[]; stop: () => void } | undefined> {
  const brotli = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";
  if (!existsSync("/usr/sbin/nginx") || !existsSync(brotli)) {
    log("installing nginx-light and its brotli_static module");
    const install = "apt-get install -y -qq nginx-light libnginx-mod-http-brotli-static >/dev/null";
    const apt = spawnSync(
      "bash",
      [
        "-c",
        `DEBIAN_FRONTEND=noninteractive ${install} 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${install})`,
      ],
      { stdio: "inherit" },
    );
    if (apt.status !== 0 || !existsSync("/usr/sbin/nginx") || !existsSync(brotli)) return undefined;
  }
  const prefix = join(WORK, "nginx");
  await rm(prefix, { recursive: true, force: true });
  await mkdir(prefix, { recursive: true });
  const port = await freePort();
  const args = ["--standalone", "--root", dist, "--upstream", upstream, "--listen", `127.0.0.1:${port}`];
  const config = await nginxConfig(args, { BASE_URL: BASE });
  if (config.code !== 0) throw new Error(`npm run nginx-config failed: ${config.stderr}`);
  await writeFile(join(prefix, "nginx.conf"), config.stdout);
  const child = spawn(
    "/usr/sbin/nginx",
    ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", "stderr", "-g", `daemon off; pid ${prefix}/nginx.pid;`],
    { stdio: "ignore" },
  );
  await until(
    "nginx",
    async () => (await fetch(`http://127.0.0.1:${port}/reviews.json`, { method: "HEAD" }).catch(() => undefined))?.ok,
  );
  const pid = child.pid as number;
  return { url: `http://127.0.0.1:${port}`, pids: () => [pid, ...childPids(pid)], stop: () => child.kill() };
}

// Heavy and slow clients at once, and since/2000-01-01 alone (bench/mixed.ts), each on a sidecar just started.
// TRUST_PROXY=loopback: each simulated client sends its own X-Forwarded-For, as behind the deployment's proxy.
async function mixedBench(dist: string, n: number) {
  const jsonBytes = (await stat(join(dist, "reviews.json"))).size;
  const loopFile = join(WORK, "mixed-loop.json");
  const monitor = join(ROOT, "bench/lib/loop-monitor.ts");
  const start = async () =>
    startSidecarProcess({
      DIST_DIR: dist,
      DATA_DIR: join(WORK, "data-mixed"),
      BASE_URL: BASE,
      LOG_LEVEL: "warn",
      TRUST_PROXY: "loopback",
      PORT: String(await freePort()),
      BENCH_LOOP_FILE: loopFile,
      NODE_OPTIONS: `--import ${monitor}${cpuProf ? ` --cpu-prof --cpu-prof-dir=${cpuProf}` : ""}`,
    });
  let sidecar: SidecarProcess;
  if (!mixedLoadOnly) {
    log(`since/2000-01-01 alone at ${n}`);
    sidecar = await start();
    try {
      const r = await sinceAlone({
        url: sidecar.url,
        pid: sidecar.child.pid as number,
        rounds: quick ? 2 : 5,
        readers: 50,
        slowS: quick ? 10 : 30,
        inside: insideStats(sidecar.child.pid as number, loopFile),
      });
      report.push(...sinceAloneReport(r, { table, fmt }, median));
    } finally {
      await sidecar.stop();
    }
  }
  log(`mixed load at ${n} for ${MIXED_S} s, then ${AFTER_S} s quiet`);
  sidecar = await start();
  try {
    const r = await mixedLoad({
      url: sidecar.url,
      baseUrl: BASE,
      pid: sidecar.child.pid as number,
      durationS: MIXED_S,
      afterS: AFTER_S,
      inside: insideStats(sidecar.child.pid as number, loopFile),
    });
    report.push(...mixedReport(r, jsonBytes, { table, fmt }));
  } finally {
    await sidecar.stop();
  }
}

async function pairedSection(dist: string, n: number, old: string) {
  const oldCommit = execFileSync("git", ["-C", old, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  log(`paired against ${oldCommit} at ${n}`);
  const connections = 50;
  const rows = await pairedBench({ root: ROOT, oldRoot: old, dist, baseUrl: BASE, ...PAIRED, connections, log });
  report.push(...pairedReport(rows, { oldCommit, ...PAIRED, connections, reviews: n }, { table, fmt }));
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

// 4. Hub fan-out (bench/hub-fanout.ts): each size twice on this shared machine, and a burst of 1,000 on a slowed disk.
async function fanoutBench() {
  const pki = await makeTestPki();
  const dists = await fanoutBuilds(WORK);
  const rows: FanoutRow[] = [];
  const runs = quick ? 1 : 2;
  for (const n of FANOUT)
    for (let i = 0; i < runs; i++) rows.push(await fanoutRun(n, { work: WORK, dists, pki, slowDisk: false, log }));
  for (let i = 0; i < runs; i++) rows.push(await fanoutRun(1000, { work: WORK, dists, pki, slowDisk: true, log }));
  report.push(...fanoutReport(rows, fmt));
}

// MCP memory under load: one session, many requests, RSS sampled (bench/mcp.ts).
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
const startLoad = loadavg()[0];
// --dist: that build stands for every size (labelled with its review count), nothing is generated or built.
const builds = givenDist === undefined && SECTIONS.some((s) => s !== "analysis" && wanted(s));
const dists = givenDist
  ? new Map([
      [
        (JSON.parse(await readFile(join(givenDist, MANIFEST_FILE), "utf8")) as { review_count: number }).review_count,
        givenDist,
      ],
    ])
  : builds
    ? await buildBench()
    : new Map<number, string>();
if (wanted("build") || wanted("analysis")) await analysisBench();
const sizes = [...dists.keys()];
const largest = Math.max(...sizes);
const smallest = Math.min(...sizes);
await httpBench(dists.get(largest) as string, largest);
if (wanted("mixed")) await mixedBench(dists.get(largest) as string, largest);
if (wanted("paired")) {
  if (oldRoot) await pairedSection(dists.get(largest) as string, largest, oldRoot);
  else report.push("## Against the previous sidecar: not measured (no --old=<checkout>)", "");
}
if (wanted("process")) await processBench(dists);
if (wanted("soak")) await mcpSoakBench(dists.get(smallest) as string);
if (wanted("fanout")) await fanoutBench();
const abuseSize = dists.has(10000) ? 10000 : smallest;
if (wanted("abuse"))
  report.push(...(await pipelineAbuseBench(dists.get(abuseSize) as string, abuseSize, await freePort())));
if (wanted("hub"))
  report.push(...(await sharedHubBench({ work: WORK, sizes: FANOUT.slice(-1), runs: quick ? 1 : 2, log })));
const header = [
  "# Benchmark results",
  "",
  `Run: ${started.toISOString()}${quick ? " (--quick: fewer sizes, 1 run each, 2 s loads)" : ""}; machine: ${cpus().length} x ${cpus()[0]?.model}, ${fmt(totalmem() / 2 ** 30, 0)} GiB; Node ${process.version}; load average (1 min) ${fmt(startLoad, 2)} at the start, ${fmt(loadavg()[0], 2)} at the end.`,
  "Absolute numbers on this shared machine are noisy; ratios are taken against baselines measured in the same run, in alternating turns.",
  "",
];
// A partial run (--only, --dist) prints its tables and leaves RESULTS.md, the record of a full run, as it is.
if (only === undefined && givenDist === undefined)
  await writeFile(join(ROOT, "bench/RESULTS.md"), `${[...header, ...report].join("\n")}\n`);
console.log([...header, ...report].join("\n"));
