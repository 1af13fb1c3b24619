// Liveness and readiness for load balancers and the publish step: /healthz (the process answers) and
// /readyz (can serve reads: a build is loaded and the instance is not draining). Both are JSON and never cached.
// What the instance shares with the others (the database) does not make it unready: every instance shares it,
// so a balancer that polled it would take them all out while reads still work. A failing dependency is listed
// under `degraded` (and in /healthz and the metrics); `?strict=1` makes it a 503 for those who want that. A failed
// rebuild leaves the last good build served ("stale"), an operator's problem rather than the balancer's.
import { Router as createRouter, type Router } from "express";
import { HEALTH_PATH, READY_PATH } from "../../src/domain/operations-paths.ts";
import type { BuildStatus } from "../build-health.ts";
import type { BuildStore } from "../build-store/build-store.ts";
import type { Dependencies } from "../dependencies.ts";

export interface Readiness {
  /** Shared dependencies (the database, the shared rate limits): degrade, never unready unless `?strict=1`. */
  dependencies?: Dependencies;
  /** True once a graceful shutdown has begun: the balancer should drain this instance. */
  draining?: () => boolean;
  /** Conditions worth an operator's attention that do not stop serving (e.g. a full disk under the hub). */
  warnings?: () => string[];
  /** Whether the build served is current: this process's rebuilds, or the last publish; default "ok". */
  build?: BuildStatus;
}

/** When this process started serving: a rolling restart waits for a started_at later than the restart. */
const STARTED_AT = new Date().toISOString();

const STRICT_VALUES: Record<string, boolean> = { "": true, "1": true, true: true, "0": false, false: false };

export function createHealthRouter(store: BuildStore, readiness: Readiness = {}): Router {
  const router = createRouter();
  const failing = async () => (await readiness.dependencies?.check())?.filter((d) => d.problem !== null) ?? [];
  router.get(HEALTH_PATH, async (_req, res) => {
    const degraded = await failing();
    res
      .set("Cache-Control", "no-store")
      .json({ status: "ok", ...(degraded.length ? { degraded: degraded.map((d) => d.name) } : {}) });
  });
  router.get(READY_PATH, async (req, res) => {
    const raw = req.query.strict;
    const strict = raw === undefined ? false : typeof raw === "string" ? STRICT_VALUES[raw] : undefined;
    if (strict === undefined) {
      res.status(400).set("Cache-Control", "no-store").json({ error: "strict must be 1 or 0" });
      return;
    }
    const build = store.current().manifest;
    const problems: string[] = [];
    const warnings = readiness.warnings?.() ?? [];
    if (readiness.draining?.()) problems.push("shutting down");
    const degraded = await failing();
    for (const d of degraded) (strict ? problems : warnings).push(d.problem as string);
    res
      .status(problems.length ? 503 : 200)
      .set("Cache-Control", "no-store")
      .json({
        status: problems.length ? "not_ready" : "ready",
        build_id: build.build_id,
        review_count: build.review_count,
        started_at: STARTED_AT,
        build: (await readiness.build?.state()) ?? { status: "ok", error: null, failing_since: null },
        ...(degraded.length ? { degraded: degraded.map((d) => d.name) } : {}),
        ...(problems.length ? { problems } : {}),
        ...(warnings.length ? { warnings } : {}),
      });
  });
  return router;
}
