// Paths for operators and load balancers, written once: the sidecar serves them, the publish step polls
// readiness, and the generated nginx config keeps metrics off the public site.
export const HEALTH_PATH = "/healthz";
export const READY_PATH = "/readyz";
export const METRICS_PATH = "/metrics";
