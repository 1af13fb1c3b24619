// GET /metrics: Prometheus text exposition of the sidecar's registry (never cached).
import { Router as createRouter, type Router } from "express";
import { METRICS_PATH } from "../../src/domain/operations-paths.ts";
import type { Metrics } from "../metrics.ts";

export function createMetricsRouter(metrics: Metrics): Router {
  const router = createRouter();
  router.get(METRICS_PATH, async (_req, res) => {
    const body = await metrics.registry.metrics();
    res.set("Cache-Control", "no-store").type(metrics.registry.contentType).send(body);
  });
  return router;
}
