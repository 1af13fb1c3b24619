// npm run nginx-config -- --root <dist> --upstream <host:port> [--upstream <host:port> …] [--upstreams-file FILE]
//   --listen <host:port> [--access-log PATH|off] [--standalone] [--no-brotli]
// Prints an nginx configuration that serves the build like the sidecar and proxies the rest to the sidecars
// (docs/operations.md). Without --standalone it is a file for nginx's http block (e.g. /etc/nginx/conf.d/).
import "../src/require-node-version.ts";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { BROTLI_MODULE, renderNginxConfig } from "../src/deploy/nginx-config.ts";
import { readManifest } from "../src/deploy/read-manifest.ts";
import { MANIFEST_FILE } from "../src/domain/schemas/manifest.ts";

const HOST_PORT = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$|^\d{1,5}$/i;

function fail(message: string): never {
  console.error(`nginx-config: ${message}`);
  process.exit(2);
}

function readUpstreamsFile(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    fail(`cannot read --upstreams-file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const lines = text
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean);
  if (!lines.length) fail(`--upstreams-file ${file} lists no upstream (one host:port a line)`);
  return lines;
}

try {
  const { values } = parseArgs({
    options: {
      root: { type: "string" },
      upstream: { type: "string", multiple: true },
      "upstreams-file": { type: "string" },
      "access-log": { type: "string" },
      listen: { type: "string" },
      standalone: { type: "boolean", default: false },
      "no-brotli": { type: "boolean", default: false },
      "brotli-module": { type: "string", default: BROTLI_MODULE },
    },
  });
  const config = loadConfig();
  const root = resolve(values.root ?? config.DIST_DIR);
  // The file form: one host:port a line; blank lines and # comments are ignored.
  const fromFile = values["upstreams-file"]
    ? readUpstreamsFile(values["upstreams-file"]).map((u) => ["--upstreams-file", u] as const)
    : [];
  const given = [...(values.upstream ?? []).map((u) => ["--upstream", u] as const), ...fromFile];
  const upstreams = given.length ? given : [["--upstream", `${config.HOST}:${config.PORT}`] as const];
  const listen = values.listen ?? "80";
  for (const [flag, value] of [...upstreams, ["--listen", listen] as const]) {
    if (!HOST_PORT.test(value)) fail(`${flag} must be host:port (or a port), got ${JSON.stringify(value)}`);
  }
  const unique = [...new Set(upstreams.map(([, u]) => u))];
  if (unique.length !== upstreams.length) fail("an upstream is listed twice");
  // No build yet is fine (the config can be made first); a build for another BASE_URL is not.
  const manifest = await readManifest(root);
  if (!manifest && existsSync(join(root, MANIFEST_FILE)))
    fail(`${join(root, MANIFEST_FILE)} is not a valid build manifest`);
  if (manifest && manifest.base_url !== config.BASE_URL) {
    const built = manifest.base_url;
    fail(`${root} was built for BASE_URL=${built}, but BASE_URL is ${config.BASE_URL}: run with BASE_URL=${built}`);
  }
  const brotli = !values["no-brotli"];
  if (values.standalone && brotli && !existsSync(values["brotli-module"])) {
    fail(
      `the brotli module ${values["brotli-module"]} is missing: install libnginx-mod-http-brotli-static, pass --brotli-module <path>, or --no-brotli (gzip only)`,
    );
  }
  process.stdout.write(
    renderNginxConfig({
      root,
      upstreams: unique,
      listen,
      // Relative to nginx's prefix (-p) in a standalone config.
      accessLog: values["access-log"] ?? (values.standalone ? "access.log" : "/var/log/nginx/reviews-access.log"),
      baseUrl: config.BASE_URL,
      brotli,
      standalone: values.standalone ? { brotliModule: values["brotli-module"] } : undefined,
    }),
  );
} catch (e) {
  fail((e as Error).message);
}
