// The output folder's life cycle. A build renders into `<DIST_DIR>.tmp-<pid>` and swaps it in with two renames
// (`DIST_DIR` -> `<DIST_DIR>.old-<pid>`, tmp -> `DIST_DIR`). A process killed between the two renames leaves no
// `DIST_DIR`; `recoverOutput` (run by every build and every sidecar start) puts the last live build back and
// removes what killed builds left behind.
import { access, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { MANIFEST_FILE } from "../domain/schemas/manifest.ts";

export interface OutputPaths {
  dist: string;
  tmp: string;
  old: string;
}

export function outputPaths(distDir: string, pid = process.pid): OutputPaths {
  const dist = resolve(distDir);
  return { dist, tmp: `${dist}.tmp-${pid}`, old: `${dist}.old-${pid}` };
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Whether the process a leftover folder is named after still runs. */
export function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface Leftover {
  path: string;
  kind: "tmp" | "old";
  pid: number;
}

async function leftovers(dist: string): Promise<Leftover[]> {
  const name = basename(dist);
  const pattern = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(tmp|old)-(\\d+)$`);
  const entries = await readdir(dirname(dist)).catch(() => [] as string[]);
  return entries.flatMap((e) => {
    const m = pattern.exec(e);
    return m ? [{ path: join(dirname(dist), e), kind: m[1] as "tmp" | "old", pid: Number(m[2]) }] : [];
  });
}

/**
 * Restores `DIST_DIR` when a killed build left it missing (the build that was live, else a complete new one),
 * then deletes the temporary and old folders of builds that are no longer running. Returns what it did.
 */
export async function recoverOutput(distDir: string): Promise<string[]> {
  const { dist } = outputPaths(distDir);
  const done: string[] = [];
  const dead = (await leftovers(dist)).filter((l) => !alive(l.pid));
  if (!(await exists(dist))) {
    const complete = [];
    for (const l of dead) if (await exists(join(l.path, MANIFEST_FILE))) complete.push(l);
    const pick = complete.find((l) => l.kind === "old") ?? complete[0];
    if (pick) {
      await rename(pick.path, dist);
      done.push(`restored ${dist} from ${basename(pick.path)} (a build was stopped while swapping)`);
    }
  }
  for (const l of dead) {
    if (!(await exists(l.path))) continue;
    await rm(l.path, { recursive: true, force: true });
    done.push(`removed ${basename(l.path)} left by a stopped build`);
  }
  return done;
}
