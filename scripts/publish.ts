// npm run publish -- [--target <dir>] [--from <build>] [--production] [--sidecar <url>] [--timeout <s>] [--no-wait]
// One command for CI and people: build (or take --from), hand the build to the sidecar's DIST_DIR, wait until the
// sidecar serves it, and only then copy it to the static host's folder. Any failure exits 1 and leaves the static
// folder as it was; a refused build is taken back out of DIST_DIR. README: "Publishing".
import { cp, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildSite } from "../src/build/build-site.ts";
import { loadConfig } from "../src/config.ts";
import { handOver, incomingDir, previousDir } from "../src/deploy/hand-over.ts";
import { assertPublicBaseUrl } from "../src/deploy/production-guard.ts";
import { PublishError } from "../src/deploy/publish-errors.ts";
import { readManifest, syncToTarget } from "../src/deploy/sync-target.ts";
import { waitForBuild } from "../src/deploy/wait-ready.ts";
import { ContentError } from "../src/domain/content-errors.ts";

process.env.ASTRO_TELEMETRY_DISABLED = "1";

async function publish(): Promise<void> {
  const { values } = parseArgs({
    options: {
      target: { type: "string" },
      from: { type: "string" },
      production: { type: "boolean", default: false },
      sidecar: { type: "string" },
      timeout: { type: "string", default: "60" },
      "no-wait": { type: "boolean", default: false },
    },
  });
  const config = loadConfig();
  const timeoutMs = Number(values.timeout) * 1000;
  if (!(timeoutMs > 0)) throw new PublishError(`--timeout must be a positive number of seconds, got ${values.timeout}`);
  const production = values.production || config.CI;
  if (production) assertPublicBaseUrl(config.BASE_URL, values.production ? "--production" : "CI=true");
  const dist = resolve(config.DIST_DIR);
  const incoming = incomingDir(dist);
  await rm(incoming, { recursive: true, force: true });

  if (values.from) {
    const from = resolve(values.from);
    const built = await readManifest(from);
    if (!built) throw new PublishError(`--from ${values.from}: no complete build there (no valid manifest)`);
    if (built.base_url !== config.BASE_URL) {
      throw new PublishError(
        `--from ${values.from} was built for ${built.base_url}, but BASE_URL is ${config.BASE_URL}`,
      );
    }
    await cp(from, incoming, { recursive: true, preserveTimestamps: true });
  } else {
    await buildSite({ ...config, DIST_DIR: incoming });
  }
  const manifest = await readManifest(incoming);
  if (!manifest) throw new PublishError(`${incoming} holds no complete build`);
  console.log(`publishing build ${manifest.build_id} (${manifest.review_count} reviews) for ${manifest.base_url}`);

  const handover = await handOver(incoming, dist);
  if (!values["no-wait"]) {
    const sidecar = (values.sidecar ?? `http://${config.HOST}:${config.PORT}`).replace(/\/+$/, "");
    try {
      await waitForBuild(`${sidecar}/readyz`, manifest.build_id, timeoutMs);
    } catch (e) {
      await handover.rollback();
      throw new PublishError(`${(e as Error).message}\n${config.DIST_DIR} holds the previous build again.`);
    }
    console.log(`the sidecar at ${sidecar} serves build ${manifest.build_id}`);
  }
  await handover.commit();
  if (values.target) {
    const report = await syncToTarget(dist, resolve(values.target));
    console.log(
      `${values.target}: ${report.written.length} files written, ${report.unchanged.length} unchanged, ${report.deleted.length} deleted`,
    );
  }
  console.log(`published; the build before is kept in ${previousDir(config.DIST_DIR)} (rollback: README "Day 2")`);
}

try {
  await publish();
} catch (e) {
  const known = e instanceof PublishError || e instanceof ContentError;
  console.error(`publish failed: ${known || !(e instanceof Error) ? (e as Error).message : e.stack}`);
  process.exit(1);
}
