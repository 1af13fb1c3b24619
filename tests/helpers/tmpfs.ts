// A small tmpfs mounted on a folder, for tests of a full disk. Needs root; unmounted when the process exits
// even if the test failed before its own unmount, so no mount (and no folder that cannot be removed) is left.
import { execFileSync } from "node:child_process";
import { onExit } from "./cleanup.ts";

/** Mounts a tmpfs of `size` on `dir`; returns why it could not (not root, no mount), or an unmount function. */
export function mountTmpfs(dir: string, size = "300k"): { unmount(): void } | { cannot: string } {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
  } catch (e) {
    return { cannot: `cannot mount a tmpfs (${(e as Error).message.split("\n")[0]}); this test needs root` };
  }
  const unmountNow = () => {
    try {
      execFileSync("umount", [dir], { stdio: "pipe" });
    } catch {
      // still busy (a process killed a moment ago): detach it now, the kernel frees it when the last user goes
      execFileSync("umount", ["-l", dir], { stdio: "pipe" });
    }
  };
  const forget = onExit(unmountNow);
  return {
    unmount() {
      forget();
      unmountNow();
    },
  };
}
