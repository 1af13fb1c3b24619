// The request-duration histogram (sidecar/metrics.ts) is recorded without prom-client's per-observation work but
// must expose exactly what prom-client's Histogram exposes for the same observations.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Histogram, Registry } from "prom-client";
import { RequestDurations } from "../../sidecar/metrics.ts";

test("RequestDurations: the same text and JSON as prom-client's Histogram for the same observations", async () => {
  const name = "reviews_http_request_duration_seconds";
  const help = "HTTP request duration by method, route pattern and status";
  const ours = new Registry();
  const theirs = new Registry();
  const durations = new RequestDurations(name, help, ours);
  const reference = new Histogram({
    name,
    help,
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [theirs],
  });
  assert.equal(await ours.metrics(), await theirs.metrics(), "nothing observed yet");
  // Values on and between the bounds, above the largest one, and label values that need escaping.
  const seen: [string, string, number, number][] = [
    ["GET", "static", 304, 0.0004],
    ["GET", "static", 304, 0.001],
    ["GET", "static", 200, 0.0011],
    ["HEAD", "/api/reviews/since/:date", 304, 0.3],
    ["GET", "static", 304, 12],
    ["other", "unmatched", 404, 2.5],
    ["GET", 'a"b\\c\nd', 500, 0.07],
    ["GET", "static", 304, 0.02],
  ];
  for (const [method, route, status, seconds] of seen) {
    durations.observe(method, route, status, seconds);
    reference.observe({ method, route, status: String(status) }, seconds);
  }
  assert.equal(await ours.metrics(), await theirs.metrics());
  assert.deepEqual(await ours.getMetricsAsJSON(), await theirs.getMetricsAsJSON());
  ours.resetMetrics();
  theirs.resetMetrics();
  assert.equal(await ours.metrics(), await theirs.metrics(), "after a reset");
});
