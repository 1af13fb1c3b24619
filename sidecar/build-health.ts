// What the server knows about building its content (npm start, npm run serve -- --watch): whether the build it
// serves is current, since when the content has changed without a good build, and the last failure. /readyz and
// /metrics read it; the content watcher writes it. A server that does not build (npm run serve) reports the last
// npm run publish into its DIST_DIR instead (src/deploy/publish-status.ts).
import { readPublishStatus } from "../src/deploy/publish-status.ts";

export interface BuildHealthState {
  /** "ok": the last build attempt succeeded (or none was needed); "stale": the content changed and the rebuild failed. */
  status: "ok" | "stale";
  /** The last failed build's reason, while stale. */
  error: string | null;
  /** When the first of the failures in a row happened (ISO-8601), while stale. */
  failing_since: string | null;
}

export interface BuildHealth {
  state(): BuildHealthState;
  /** A change under CONTENT_DIR was seen (the build served does not hold it until a build succeeds). */
  contentChanged(at?: number): void;
  /** A build that started at `startedAt` succeeded: changes seen after that may still be missing from it. */
  succeeded(startedAt: number, at?: number): void;
  failed(error: string, at?: number): void;
  /** Failed builds since the process started. */
  readonly failures: number;
  /** When the last build succeeded (ms since the epoch), or undefined when none ran in this process. */
  readonly lastSuccess: number | undefined;
  /** Milliseconds since the first content change the served build does not hold; 0 when it is current. */
  staleForMs(now?: number): number;
}

const MAX_ERROR_CHARS = 600;
/** The end of a build's output says why it failed; the rest is kept out of /readyz. */
const clip = (message: string) => (message.length > MAX_ERROR_CHARS ? `…${message.slice(-MAX_ERROR_CHARS)}` : message);

export function createBuildHealth(): BuildHealth {
  let error: string | null = null;
  let failingSince: number | undefined;
  let pendingSince: number | undefined;
  let lastChange: number | undefined;
  let failures = 0;
  let lastSuccess: number | undefined;
  return {
    state: () => ({
      status: error === null ? "ok" : "stale",
      error,
      failing_since: failingSince === undefined ? null : new Date(failingSince).toISOString(),
    }),
    contentChanged(at = Date.now()) {
      pendingSince ??= at;
      lastChange = at;
    },
    succeeded(startedAt, at = Date.now()) {
      error = null;
      failingSince = undefined;
      pendingSince = lastChange !== undefined && lastChange > startedAt ? lastChange : undefined;
      lastSuccess = at;
    },
    failed(message, at = Date.now()) {
      failures++;
      error = clip(message);
      failingSince ??= at;
    },
    get failures() {
      return failures;
    },
    get lastSuccess() {
      return lastSuccess;
    },
    staleForMs: (now = Date.now()) => (pendingSince === undefined ? 0 : Math.max(0, now - pendingSince)),
  };
}

/** The state /readyz and /metrics report: this process's rebuilds, or else the last publish into DIST_DIR. */
export interface BuildStatus {
  state(): Promise<BuildHealthState>;
  /** Milliseconds the served build has been behind the content (a pending or failing rebuild or publish). */
  staleForMs(): Promise<number>;
  readonly failures: number;
  readonly lastSuccess: number | undefined;
}

export function buildStatus(health: BuildHealth | undefined, distDir: string): BuildStatus {
  const publish = async (): Promise<BuildHealthState | undefined> => {
    const last = await readPublishStatus(distDir);
    if (last?.status !== "failed") return undefined;
    return {
      status: "stale",
      error: clip(`npm run publish failed: ${last.error ?? ""}`),
      failing_since: last.failing_since,
    };
  };
  return {
    async state() {
      const own = health?.state();
      if (own?.status === "stale") return own;
      return (await publish()) ?? own ?? { status: "ok", error: null, failing_since: null };
    },
    async staleForMs(now = Date.now()) {
      const own = health?.staleForMs(now) ?? 0;
      const since = (await publish())?.failing_since;
      return Math.max(own, since ? Math.max(0, now - Date.parse(since)) : 0);
    },
    get failures() {
      return health?.failures ?? 0;
    },
    get lastSuccess() {
      return health?.lastSuccess;
    },
  };
}
