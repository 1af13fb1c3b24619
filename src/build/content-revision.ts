// The content's revision for the build manifest (and the sidecar's reviews_build_info): the git commit CONTENT_DIR
// is checked out at, marked "-dirty" when files under it differ from that commit; null outside a git repository
// or without git.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);
/** git answers in milliseconds; a hung git (a network file system) must not hold the build. */
const GIT_TIMEOUT_MS = 5_000;

export async function contentRevision(contentDir: string): Promise<string | null> {
  const git = (...args: string[]) =>
    // --no-optional-locks: git status leaves the index as it is (a build changes nothing in the repository).
    run("git", ["--no-optional-locks", "-C", contentDir, ...args], { timeout: GIT_TIMEOUT_MS }).then((r) =>
      r.stdout.trim(),
    );
  try {
    const commit = await git("rev-parse", "--verify", "HEAD");
    const changed = await git("status", "--porcelain", "--", ".");
    return changed ? `${commit}-dirty` : commit;
  } catch {
    return null;
  }
}
