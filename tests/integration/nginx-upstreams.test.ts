// npm run nginx-config with several sidecars: `--upstream` repeated or a file, nginx -t accepts the result,
// requests reach every sidecar, a stopped one is skipped, and the access log records each request's timings.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { buildSample } from "../helpers/build.ts";
import { nginxConfig, type RunningNginx, startNginx } from "../helpers/nginx.ts";
import { tempDir } from "../helpers/paths.ts";
import { type SidecarProcess, startSidecarProcess } from "../helpers/sidecar-process.ts";
import { until } from "../helpers/until.ts";

const BASE_URL = "http://localhost:4321";
let dist: string;
const sidecars: SidecarProcess[] = [];
let nginx: RunningNginx | undefined;

before(async () => {
  dist = await buildSample();
  for (let i = 0; i < 2; i++) {
    sidecars.push(await startSidecarProcess({ DIST_DIR: dist, DATA_DIR: join(await tempDir("up"), "data") }));
  }
  nginx = await startNginx({ root: dist, upstream: sidecars.map((s) => new URL(s.url).host), baseUrl: BASE_URL });
});
after(async () => {
  await nginx?.stop();
  for (const s of sidecars) await s.stop();
});

test("the configuration passes nginx -t and lists one server per upstream", async () => {
  const conf = join(nginx?.prefix ?? "", "nginx.conf");
  const run = promisify(execFile);
  const checked = await run("/usr/sbin/nginx", ["-t", "-p", nginx?.prefix ?? "", "-c", conf, "-e", "stderr"]);
  assert.match(checked.stderr, /syntax is ok/);
  for (const s of sidecars) assert.match(nginx?.config ?? "", new RegExp(`server ${new URL(s.url).host} max_fails=3`));
});

test("requests reach both sidecars, a stopped one is skipped, and each request is logged with its time", async () => {
  const answered = () => sidecars.map((s) => s.logs.filter((l) => l.event === "http.request").length);
  const before1 = answered();
  for (let i = 0; i < 20; i++) {
    const r = await fetch(`${nginx?.url}/api/reviews/search?limit=1&min_rating=${(i % 5) + 1}`);
    assert.equal(r.status, 200);
    await r.arrayBuffer();
  }
  // Each sidecar's log lines reach this process through its stdout, a little after the answers.
  await until("a log line of a request in each sidecar", () => answered().every((n, i) => n > before1[i]));
  const line = await until("the access log line of the first request", async () => {
    const log = await readFile(join(nginx?.prefix ?? "", "access.log"), "utf8");
    return log.split("\n").find((l) => l.includes("/api/reviews/search?limit=1&min_rating=1 "));
  });
  assert.match(line ?? "", / 200 \d+ rt=\d+\.\d{3} upstream=127\.0\.0\.1:\d+ urt=\d+\.\d{3}/);

  await sidecars[1].stop();
  for (let i = 0; i < 10; i++) {
    assert.equal((await fetch(`${nginx?.url}/api/reviews/search?limit=1`)).status, 200, "the other one answers");
  }
});

test("--upstreams-file gives the same configuration as repeated --upstream; bad lists are refused", async () => {
  const dir = await tempDir("up-file");
  const file = join(dir, "upstreams");
  await writeFile(file, "# the sidecars\n127.0.0.1:4321\n\n127.0.0.1:4322  # second\n");
  const common = ["--standalone", "--no-brotli", "--root", dist, "--listen", "127.0.0.1:8080"];
  const fromFile = await nginxConfig([...common, "--upstreams-file", file], { BASE_URL });
  const repeated = await nginxConfig([...common, "--upstream", "127.0.0.1:4321", "--upstream", "127.0.0.1:4322"], {
    BASE_URL,
  });
  assert.equal(fromFile.code, 0, fromFile.stderr);
  assert.equal(fromFile.stdout, repeated.stdout);
  const twice = await nginxConfig([...common, "--upstream", "127.0.0.1:4321", "--upstream", "127.0.0.1:4321"], {
    BASE_URL,
  });
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /listed twice/);
  const missing = await nginxConfig([...common, "--upstreams-file", join(dir, "nope")], { BASE_URL });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read --upstreams-file .*nope: ENOENT/);
  const off = await nginxConfig([...common, "--access-log", "off"], { BASE_URL });
  assert.match(off.stdout, /access_log off;/);
});
