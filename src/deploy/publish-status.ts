// The outcome of the last npm run publish, beside DIST_DIR (DIST_DIR.publish-status.json): the sidecar serving
// DIST_DIR reports a failed publish (bad content committed, a build that broke) in /readyz and its metrics, as it
// does a failed rebuild of its own, until a publish succeeds.
import { readFile, rename, writeFile } from "node:fs/promises";
import * as z from "zod";

export const publishStatusPath = (dist: string) => `${dist}.publish-status.json`;

export const PublishStatus = z.object({
  status: z.enum(["ok", "failed"]),
  /** When this publish ended (ISO-8601). */
  at: z.string(),
  error: z.string().nullable(),
  /** The first failure of the row (ISO-8601), while failing. */
  failing_since: z.string().nullable(),
});
export type PublishStatus = z.infer<typeof PublishStatus>;

/** The last publish's outcome, or undefined when none was recorded (or the file is unreadable). */
export async function readPublishStatus(dist: string): Promise<PublishStatus | undefined> {
  const text = await readFile(publishStatusPath(dist), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return PublishStatus.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Records a publish's outcome (written by rename: a reader never sees half of it). */
export async function recordPublish(dist: string, error: string | null, now = new Date()): Promise<void> {
  const previous = error === null ? undefined : await readPublishStatus(dist);
  const status: PublishStatus = {
    status: error === null ? "ok" : "failed",
    at: now.toISOString(),
    error,
    failing_since: error === null ? null : previous?.status === "failed" ? previous.failing_since : now.toISOString(),
  };
  const path = publishStatusPath(dist);
  await writeFile(`${path}.tmp-${process.pid}`, JSON.stringify(status));
  await rename(`${path}.tmp-${process.pid}`, path);
}
