// Waits until the sidecar's GET /readyz reports the expected build: the proof that it accepted the hand-over.
import { setTimeout as sleep } from "node:timers/promises";
import { PublishError } from "./publish-errors.ts";

const POLL_MS = 250;

interface Readiness {
  status?: string;
  build_id?: string;
}

export async function waitForBuild(readyUrl: string, buildId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  for (;;) {
    const left = deadline - Date.now();
    try {
      const res = await fetch(readyUrl, { signal: AbortSignal.timeout(Math.max(1, Math.min(5000, left))) });
      const body = (await res.json().catch(() => ({}))) as Readiness;
      if (res.ok && body.build_id === buildId) return;
      last = `HTTP ${res.status}, status ${body.status ?? "?"}, build ${body.build_id ?? "?"}`;
    } catch (e) {
      last = (e as Error).cause ? String(((e as Error).cause as Error).message) : (e as Error).message;
    }
    if (Date.now() + POLL_MS > deadline) break;
    await sleep(POLL_MS);
  }
  throw new PublishError(
    `The sidecar did not switch to build ${buildId} within ${Math.round(timeoutMs / 1000)} s (${readyUrl}: ${last}). ` +
      "Its log says why (event build.reload_failed), e.g. the build was made for another BASE_URL than the sidecar's.",
  );
}
