// The publish step: build (or take an existing build), hand it to the sidecar's DIST_DIR, wait until the sidecar
// serves it, and only then copy it to the static folder. Any failure throws a PublishError and leaves the static
// folder as it was; a build the sidecar refuses is taken back out of DIST_DIR.
import { cp, rm } from "node:fs/promises";
import { resolve, sep } from "node:path";
import { buildSite } from "../build/build-site.ts";
import type { Config } from "../config.ts";
import { ContentError } from "../domain/content-errors.ts";
import { READY_PATH } from "../domain/operations-paths.ts";
import { handOver, incomingDir, lockPublishing } from "./hand-over.ts";
import { assertPublicBaseUrl } from "./production-guard.ts";
import { PublishError } from "./publish-errors.ts";
import { recordPublish } from "./publish-status.ts";
import { readManifest } from "./read-manifest.ts";
import { syncToTarget } from "./sync-target.ts";
import { waitForBuild } from "./wait-ready.ts";

export interface PublishOptions {
  /** The static folder to sync (nginx root, CDN upload folder); none: only the sidecar. */
  target?: string;
  /** Publish this existing build instead of building (a rollback). */
  from?: string;
  production: boolean;
  /** Base URLs of the sidecars whose /readyz is polled, each until it serves the build; none: do not wait. */
  sidecars: readonly string[];
  timeoutMs: number;
  log: (line: string) => void;
}

type PublishConfig = Pick<Config, "CONTENT_DIR" | "BASE_URL" | "DIST_DIR" | "CI">;

export async function publish(config: PublishConfig, o: PublishOptions): Promise<void> {
  if (o.production || config.CI) assertPublicBaseUrl(config.BASE_URL, o.production ? "--production" : "CI=true");
  const dist = resolve(config.DIST_DIR);
  const target = o.target === undefined ? undefined : resolve(o.target);
  if (target && (target === dist || target.startsWith(`${dist}${sep}`) || dist.startsWith(`${target}${sep}`))) {
    throw new PublishError(`--target ${o.target} must be a folder of its own, not DIST_DIR or one around it`);
  }
  const release = await lockPublishing(dist);
  try {
    await stageAndSwitch(config, o, dist, target);
    await recordPublish(dist, null);
  } catch (e) {
    // The sidecars on DIST_DIR report it (build: stale) until a publish succeeds.
    const known = e instanceof PublishError || e instanceof ContentError;
    const message = known ? (e as Error).message : String((e as Error).stack ?? e);
    await recordPublish(dist, message).catch(() => undefined);
    throw e;
  } finally {
    await release();
  }
}

async function stage(config: PublishConfig, from: string | undefined, incoming: string): Promise<void> {
  await rm(incoming, { recursive: true, force: true });
  if (!from) {
    await buildSite({ ...config, DIST_DIR: incoming });
    return;
  }
  const built = await readManifest(from);
  if (!built) throw new PublishError(`--from ${from}: no complete build there (no valid manifest)`);
  if (built.base_url !== config.BASE_URL) {
    throw new PublishError(`--from ${from} was built for ${built.base_url}, but BASE_URL is ${config.BASE_URL}`);
  }
  await cp(from, incoming, { recursive: true, preserveTimestamps: true });
}

async function stageAndSwitch(config: PublishConfig, o: PublishOptions, dist: string, target?: string) {
  const incoming = incomingDir(dist);
  await stage(config, o.from && resolve(o.from), incoming);
  const manifest = await readManifest(incoming);
  if (!manifest) throw new PublishError(`${incoming} holds no complete build`);
  o.log(`publishing build ${manifest.build_id} (${manifest.review_count} reviews) for ${manifest.base_url}`);

  const handover = await handOver(incoming, dist);
  if (o.sidecars.length) {
    const waits = await Promise.allSettled(
      o.sidecars.map((s) => waitForBuild(`${s}${READY_PATH}`, manifest.build_id, o.timeoutMs)),
    );
    const failed = waits.flatMap((w, i) => (w.status === "rejected" ? [`${o.sidecars[i]}: ${w.reason.message}`] : []));
    if (failed.length) {
      await handover.rollback();
      throw new PublishError(`${failed.join("\n")}\n${config.DIST_DIR} holds the previous build again.`);
    }
    for (const s of o.sidecars) o.log(`the sidecar at ${s} serves build ${manifest.build_id}`);
  }
  await handover.commit();
  if (!target) return;
  const report = await syncToTarget(dist, target).catch((e: Error) => {
    throw new PublishError(
      `The sidecar serves build ${manifest.build_id}, but copying it to ${o.target} failed: ${e.message}. Run the same command again: unchanged files are skipped.`,
    );
  });
  o.log(
    `${o.target}: ${report.written.length} files written, ${report.unchanged.length} unchanged, ${report.deleted.length} deleted`,
  );
}
