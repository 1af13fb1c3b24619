// npm run nginx-config -- --root <dist> --upstream <host:port> --listen <host:port> [--standalone] [--no-brotli]
// Prints an nginx configuration that serves the build like the sidecar and proxies the rest to it (README:
// "Deployment"). Without --standalone it is a file for nginx's http block (e.g. /etc/nginx/conf.d/).
import "../src/require-node-version.ts";
import { existsSync } from "node:fs";
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

try {
  const { values } = parseArgs({
    options: {
      root: { type: "string" },
      upstream: { type: "string" },
      listen: { type: "string" },
      standalone: { type: "boolean", default: false },
      "no-brotli": { type: "boolean", default: false },
      "brotli-module": { type: "string", default: BROTLI_MODULE },
    },
  });
  const config = loadConfig();
  const root = resolve(values.root ?? config.DIST_DIR);
  const upstream = values.upstream ?? `${config.HOST}:${config.PORT}`;
  const listen = values.listen ?? "80";
  for (const [flag, value] of [
    ["--upstream", upstream],
    ["--listen", listen],
  ]) {
    if (!HOST_PORT.test(value)) fail(`${flag} must be host:port (or a port), got ${JSON.stringify(value)}`);
  }
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
      upstream,
      listen,
      baseUrl: config.BASE_URL,
      brotli,
      standalone: values.standalone ? { brotliModule: values["brotli-module"] } : undefined,
    }),
  );
} catch (e) {
  fail((e as Error).message);
}
