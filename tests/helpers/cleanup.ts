// What a test process leaves behind is undone when it exits, whether its tests passed, failed or threw outside
// any test: child processes are killed, databases dropped, mounts unmounted, then temporary folders removed.
// Cleanups run synchronously in the 'exit' event (nothing asynchronous runs there), newest first, so a mount
// inside a temporary folder is gone before the folder is removed.
import type { ChildProcess } from "node:child_process";

const cleanups: (() => void)[] = [];

/** Runs `fn` when the process exits; the returned function forgets it (the test cleaned up itself). */
export function onExit(fn: () => void): () => void {
  cleanups.push(fn);
  return () => {
    const i = cleanups.indexOf(fn);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

/**
 * Kills the child if it is still running at exit. Spawn it with `detached: true` and its whole process group goes,
 * so what it started (npm start's build, nginx's workers) goes with it.
 */
export function killOnExit(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  const forget = onExit(() => {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // not a group leader, or already gone
      }
    }
  });
  // Once it has ended its pid may be another process's: never signal it then.
  child.once("exit", forget);
}

process.once("exit", () => {
  for (const fn of cleanups.reverse()) {
    try {
      fn();
    } catch (e) {
      process.stderr.write(`cleanup failed: ${(e as Error).message}\n`);
    }
  }
});

// A test process stopped by a signal (Ctrl-C, the runner's timeout) cleans up too: exiting runs the 'exit' event.
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const) {
  process.once(signal, () => process.exit(code));
}
