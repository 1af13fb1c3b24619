// npm run nginx-config -- --root <dist> --upstream <host:port> --listen <host:port> [--standalone] [--no-brotli]
// Prints an nginx configuration that serves the build like the sidecar and proxies the rest to it (README:
// "Deployment"). Without --standalone it is a file for nginx's http block (e.g. /etc/nginx/conf.d/).
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { BROTLI_MODULE, renderNginxConfig } from "../src/deploy/nginx-config.ts";
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
  const manifestPath = join(root, MANIFEST_FILE);
  if (existsSync(manifestPath)) {
    const built = (JSON.parse(readFileSync(manifestPath, "utf8")) as { base_url?: string }).base_url;
    if (built !== config.BASE_URL) {
      fail(`${root} was built for BASE_URL=${built}, but BASE_URL is ${config.BASE_URL}: run with BASE_URL=${built}`);
    }
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
