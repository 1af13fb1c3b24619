// Pure pieces of the deployment kit: content-derived mtimes, the production guard, the nginx config generator.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { serverTimeouts } from "../../sidecar/http/connection-limits.ts";
import { renderNginxConfig } from "../../src/deploy/nginx-config.ts";
import { assertPublicBaseUrl, isLoopbackOrigin } from "../../src/deploy/production-guard.ts";
import { contentMtime } from "../../src/domain/content-mtime.ts";
import { sha256Hex } from "../../src/domain/hash.ts";
import { MANIFEST_FILE } from "../../src/domain/schemas/manifest.ts";
import { staticFileHeaders, topicLinks } from "../../src/domain/static-headers.ts";
import { nginxConfig } from "../helpers/nginx.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";

test("contentMtime: same bytes, same whole-second date in 2000-2008; different bytes, different dates", () => {
  const a = contentMtime(sha256Hex("a"));
  assert.equal(a.getTime(), contentMtime(sha256Hex("a")).getTime());
  const dates = new Set<number>();
  for (let i = 0; i < 1000; i++) {
    const t = contentMtime(sha256Hex(`file ${i}`));
    assert.equal(t.getTime() % 1000, 0);
    assert.ok(t >= new Date("2000-01-01T00:00:00Z") && t < new Date("2008-07-05T00:00:00Z"), t.toISOString());
    dates.add(t.getTime());
  }
  assert.equal(dates.size, 1000);
  assert.throws(() => contentMtime("not a hash"), /not a sha256/);
});

test("the production guard refuses localhost and loopback origins and names the fix", () => {
  for (const url of ["http://localhost:4321", "http://127.0.0.1:8080", "http://[::1]:80", "http://a.localhost"]) {
    assert.ok(isLoopbackOrigin(url), url);
    assert.throws(() => assertPublicBaseUrl(url, "CI=true"), /public origin.*BASE_URL=https:\/\//s);
  }
  assert.doesNotThrow(() => assertPublicBaseUrl("https://reviews.example.com", "CI=true"));
  assert.ok(!isLoopbackOrigin("https://localhost.example.com"));
});

test("static headers: topics carry both WebSub links; only precompressed files vary", () => {
  const base = "https://reviews.example.com";
  assert.deepEqual([...topicLinks(base).keys()], ["/reviews.json", "/api/feed.json", "/feed.xml"]);
  const feed = staticFileHeaders(base, { urlPath: "/feed.xml", precompressed: true });
  assert.equal(feed["Content-Type"], "application/atom+xml; charset=utf-8");
  assert.equal(feed.Link, `<${base}/api/websub/hub>; rel="hub", <${base}/feed.xml>; rel="self"`);
  assert.equal(feed.Vary, "Accept-Encoding");
  const icon = staticFileHeaders(base, { urlPath: "/favicon.svg", precompressed: false });
  assert.equal(icon.Vary, undefined);
  assert.equal(icon.Link, undefined);
  assert.match(
    staticFileHeaders(base, { urlPath: "/_astro/a.1.js", precompressed: true })["Cache-Control"],
    /immutable/,
  );
});

test("nginx config: brotli only when asked, the module loaded only in a standalone file", () => {
  const o = {
    root: "/srv/dist",
    upstreams: ["127.0.0.1:4321"],
    accessLog: "off",
    listen: "8080",
    baseUrl: "https://r.example",
  };
  const gzipOnly = renderNginxConfig({ ...o, brotli: false });
  assert.doesNotMatch(gzipOnly, /brotli/);
  assert.match(gzipOnly, /gzip_static on;/);
  assert.doesNotMatch(gzipOnly, /load_module|events/);
  const standalone = renderNginxConfig({ ...o, brotli: true, standalone: { brotliModule: "/m/brotli.so" } });
  assert.match(standalone, /^load_module "\/m\/brotli\.so";$/m);
  assert.match(standalone, /brotli_static on;/);
  assert.match(standalone, /if_modified_since exact;/);
});

test("nginx closes idle upstream connections before the sidecar does; one failure does not take out an instance", async () => {
  const generated = renderNginxConfig({
    root: "/srv/dist",
    upstreams: ["127.0.0.1:4321", "127.0.0.1:4322"],
    accessLog: "/var/log/nginx/reviews-access.log",
    listen: "8080",
    baseUrl: "https://r.example",
    brotli: false,
  });
  const example = await readFile(join(ROOT, "examples/nginx-multi-instance.conf"), "utf8");
  for (const config of [generated, example]) {
    const seconds = Number(/^\s*keepalive_timeout (\d+)s;$/m.exec(config)?.[1]);
    assert.ok(seconds * 1000 < serverTimeouts.keepAliveTimeout, `${seconds} s is below the sidecar's keep-alive`);
  }
  const maxFails = [...example.matchAll(/max_fails=(\d+)/g)].map((m) => Number(m[1]));
  assert.equal(maxFails.length, 3);
  assert.ok(maxFails.every((n) => n > 1));
  const generatedFails = [...generated.matchAll(/^\s*server (\S+) max_fails=(\d+)/gm)];
  assert.deepEqual(
    generatedFails.map((m) => m[1]),
    ["127.0.0.1:4321", "127.0.0.1:4322"],
    "one server line per upstream",
  );
  assert.ok(generatedFails.every((m) => Number(m[2]) > 1));
  assert.match(generated, /access_log "\/var\/log\/nginx\/reviews-access\.log" rps_timed;/);
  assert.match(generated, /log_format rps_timed [^;]*rt=\$request_time/);
});

test("npm run nginx-config refuses a bad --listen, a root built for another BASE_URL and a broken manifest", async () => {
  const bad = await nginxConfig(["--root", "/nonexistent", "--upstream", "127.0.0.1:1", "--listen", "not a port"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--listen must be host:port/);
  const root = await tempDir("nginx-root");
  const manifest = { manifest_version: 1, build_id: "b", last_modified: null, review_count: 0, files: {} };
  await writeFile(join(root, MANIFEST_FILE), JSON.stringify({ ...manifest, base_url: "https://other.example" }));
  const other = await nginxConfig(["--root", root, "--upstream", "127.0.0.1:1", "--listen", "8080"], {
    BASE_URL: "https://reviews.example.com",
  });
  assert.equal(other.code, 2);
  assert.match(other.stderr, /built for BASE_URL=https:\/\/other\.example/);
  const ok = await nginxConfig(["--root", root, "--upstream", "127.0.0.1:1", "--listen", "8080"], {
    BASE_URL: "https://other.example",
  });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /listen 8080;/);
  // Read by the same reader as publish and npm start: a manifest that is not one is named, not trusted.
  await writeFile(join(root, MANIFEST_FILE), JSON.stringify({ base_url: "https://other.example" }));
  const broken = await nginxConfig(["--root", root, "--upstream", "127.0.0.1:1", "--listen", "8080"], {
    BASE_URL: "https://other.example",
  });
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /\.build-manifest\.json is not a valid build manifest/);
  const none = await nginxConfig(["--root", await tempDir("nginx-empty"), "--upstream", "127.0.0.1:1"], {
    BASE_URL: "https://other.example",
  });
  assert.equal(none.code, 0, "no build yet: the config can be made first");
});
