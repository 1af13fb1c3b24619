// Gives the sidecar a complete build in DIST_DIR with renames only (its watcher never sees half a build), keeping
// the build it replaces as DIST_DIR.previous, which is what a rollback publishes again.
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { PublishError } from "./publish-errors.ts";

export const incomingDir = (dist: string) => `${dist}.incoming`;
export const previousDir = (dist: string) => `${dist}.previous`;

async function move(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw e;
  }
}

export interface HandOver {
  /** The new build stays; the build before the previous one is deleted. */
  commit(): Promise<void>;
  /** The replaced build goes back into DIST_DIR and the new one is deleted. */
  rollback(): Promise<void>;
}

/** `incoming` must be a sibling of `dist` (same file system), e.g. incomingDir(dist). */
export async function handOver(incoming: string, dist: string): Promise<HandOver> {
  const previous = previousDir(dist);
  const older = `${previous}-older`;
  await rm(older, { recursive: true, force: true });
  const hadPrevious = await move(previous, older);
  const hadDist = await move(dist, previous);
  try {
    await rename(incoming, dist);
  } catch (e) {
    if (hadDist) await rename(previous, dist);
    if (hadPrevious) await rename(older, previous);
    throw e;
  }
  return {
    commit: () => rm(older, { recursive: true, force: true }),
    async rollback() {
      const refused = `${dist}.refused`;
      await rm(refused, { recursive: true, force: true });
      await rename(dist, refused);
      if (hadDist) await rename(previous, dist);
      if (hadPrevious) await rename(older, previous);
      await rm(refused, { recursive: true, force: true });
    },
  };
}

/** One publish at a time per DIST_DIR (they share DIST_DIR.incoming); resolves with the release function. */
export async function lockPublishing(dist: string): Promise<() => Promise<void>> {
  const lock = `${dist}.publish-lock`;
  try {
    await writeFile(lock, `${process.pid}\n`, { flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    const pid = (await readFile(lock, "utf8").catch(() => "?")).trim();
    throw new PublishError(
      `Another publish (pid ${pid}) holds ${lock}. Wait for it; if no publish is running, delete that file.`,
    );
  }
  return () => rm(lock, { force: true });
}
