// Liveness and readiness for load balancers and the publish step: /healthz (the process answers) and
// /readyz (a build is loaded and the instance is not draining). Both are JSON and never cached. /readyz also says
// whether the build served is current: a failed rebuild leaves the instance serving its last good build ("stale"),
// which is an operator's problem, not a reason to take the instance out.
import { Router as createRouter, type Router } from "express";
import { HEALTH_PATH, READY_PATH } from "../../src/domain/operations-paths.ts";
import type { BuildHealth } from "../build-health.ts";
import type { BuildStore } from "../build-store/build-store.ts";

export interface Readiness {
  /** Extra checks (the database, …): each resolves to null when fine, or a reason. */
  checks?: Array<() => Promise<string | null>>;
  /** True once a graceful shutdown has begun: the balancer should drain this instance. */
  draining?: () => boolean;
  /** Conditions worth an operator's attention that do not stop serving (e.g. a full disk under the hub). */
  warnings?: () => string[];
  /** The rebuild state of a server that builds its content (npm start, --watch); else always "ok". */
  buildHealth?: BuildHealth;
}

/** When this process started serving: a rolling restart waits for a started_at later than the restart. */
const STARTED_AT = new Date().toISOString();

export function createHealthRouter(store: BuildStore, readiness: Readiness = {}): Router {
  const router = createRouter();
  router.get(HEALTH_PATH, (_req, res) => {
    res.set("Cache-Control", "no-store").json({ status: "ok" });
  });
  router.get(READY_PATH, async (_req, res) => {
    const build = store.current().manifest;
    const problems: string[] = [];
    const warnings = readiness.warnings?.() ?? [];
    if (readiness.draining?.()) problems.push("shutting down");
    for (const check of readiness.checks ?? []) {
      const problem = await check().catch((e: Error) => e.message);
      if (problem) problems.push(problem);
    }
    res
      .status(problems.length ? 503 : 200)
      .set("Cache-Control", "no-store")
      .json({
        status: problems.length ? "not_ready" : "ready",
        build_id: build.build_id,
        review_count: build.review_count,
        started_at: STARTED_AT,
        build: readiness.buildHealth?.state() ?? { status: "ok", error: null, failing_since: null },
        ...(problems.length ? { problems } : {}),
        ...(warnings.length ? { warnings } : {}),
      });
  });
  return router;
}
