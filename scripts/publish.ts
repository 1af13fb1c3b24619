// npm run publish -- [--target <dir>] [--from <build>] [--production] [--sidecar <url> …] [--timeout <s>] [--no-wait]
// One command for CI and people (README: "Publishing"); the steps are in src/deploy/publish.ts. Exit 1 on failure.
import "../src/require-node-version.ts";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { previousDir } from "../src/deploy/hand-over.ts";
import { publish } from "../src/deploy/publish.ts";
import { PublishError } from "../src/deploy/publish-errors.ts";
import { ContentError } from "../src/domain/content-errors.ts";

process.env.ASTRO_TELEMETRY_DISABLED = "1";

try {
  const { values } = parseArgs({
    options: {
      target: { type: "string" },
      from: { type: "string" },
      production: { type: "boolean", default: false },
      sidecar: { type: "string", multiple: true },
      timeout: { type: "string", default: "60" },
      "no-wait": { type: "boolean", default: false },
    },
  });
  const config = loadConfig();
  const timeoutMs = Number(values.timeout) * 1000;
  if (!(timeoutMs > 0)) throw new PublishError(`--timeout must be a positive number of seconds, got ${values.timeout}`);
  // Every instance that serves this DIST_DIR: each must switch, or the hand-over is taken back.
  const sidecars = (values.sidecar ?? [`http://${config.HOST}:${config.PORT}`]).map((u) => u.replace(/\/+$/, ""));
  await publish(config, {
    target: values.target,
    from: values.from,
    production: values.production,
    sidecars: values["no-wait"] ? [] : sidecars,
    timeoutMs,
    log: (line) => console.log(line),
  });
  console.log(`published; the build before is kept in ${previousDir(config.DIST_DIR)} (rollback: README "Day 2")`);
} catch (e) {
  const known = e instanceof PublishError || e instanceof ContentError || !(e instanceof Error);
  console.error(`publish failed: ${known ? (e as Error).message : e.stack}`);
  process.exit(1);
}
