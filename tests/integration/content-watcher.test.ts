// The content watcher sees every way a file lands under CONTENT_DIR (written, saved by rename as editors and
// sed -i do, again and again, created in a new folder, deleted), debounces, and retries a failed build with
// backoff while BuildHealth reports it.
import assert from "node:assert/strict";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { pino } from "pino";
import { createBuildHealth } from "../../sidecar/build-health.ts";
import { watchContent } from "../../sidecar/content-watcher.ts";
import { tempDir } from "../helpers/paths.ts";
import { until } from "../helpers/until.ts";

const quiet = pino({ level: "silent" });

/** An editor's atomic save: the new bytes go to a temporary file beside the target, then replace it by rename. */
async function renameSave(path: string, text: string): Promise<void> {
  const tmp = `${path}.swp-${Math.random().toString(36).slice(2)}`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

test("atomic saves (twice), plain writes, new folders and deletes each rebuild", async () => {
  const dir = await tempDir("watch");
  await mkdir(join(dir, "reviews"));
  const file = join(dir, "reviews", "a.json");
  await writeFile(file, "{}");
  let builds = 0;
  const watcher = watchContent({ contentDir: dir, debounceMs: 50, logger: quiet, build: async () => void builds++ });
  try {
    await watcher.ready;
    const step = async (what: string, change: () => Promise<void>) => {
      const before = builds;
      await change();
      await until(what, () => builds > before, 5_000);
    };
    await step("a rebuild after the first rename save", () => renameSave(file, '{"v":1}'));
    await step("a rebuild after the second rename save", () => renameSave(file, '{"v":2}'));
    await step("a rebuild after a plain write to the replaced file", () => writeFile(file, '{"v":3}'));
    await step("a rebuild after a file in a new folder", async () => {
      await mkdir(join(dir, "reviews", "2027"));
      await writeFile(join(dir, "reviews", "2027", "b.json"), "{}");
    });
    await step("a rebuild after a write in that new folder", () =>
      renameSave(join(dir, "reviews", "2027", "b.json"), '{"v":1}'),
    );
    await step("a rebuild after a delete", () => rm(file));
  } finally {
    await watcher.close();
  }
});

test("a burst of changes is one build", async () => {
  const dir = await tempDir("watch");
  let builds = 0;
  const watcher = watchContent({ contentDir: dir, debounceMs: 300, logger: quiet, build: async () => void builds++ });
  try {
    await watcher.ready;
    for (let i = 0; i < 10; i++) await writeFile(join(dir, `r${i}.json`), "{}");
    await until("the build", () => builds > 0, 5_000);
    // A second build would be something happening; its absence has no event to wait for, only a window of
    // twice the debounce in which it would have started.
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(builds, 1);
  } finally {
    await watcher.close();
  }
});

test("a failed build is retried with backoff, reported as stale, and ok again once a build succeeds", async () => {
  const dir = await tempDir("watch");
  const health = createBuildHealth();
  const attempts: number[] = [];
  let failing = true;
  const watcher = watchContent({
    contentDir: dir,
    debounceMs: 100,
    logger: quiet,
    health,
    retry: { first: 200, max: 400 },
    build: async () => {
      attempts.push(Date.now());
      if (failing) throw new Error("reviews/bad.json: not JSON");
    },
  });
  try {
    await watcher.ready;
    await writeFile(join(dir, "bad.json"), "{");
    await until("four attempts", () => attempts.length >= 4, 5_000);
    const state = health.state();
    assert.equal(state.status, "stale");
    assert.match(state.error ?? "", /bad\.json/);
    const since = Date.parse(state.failing_since ?? "");
    assert.ok(since >= attempts[0] && since <= attempts[1], "failing since the first failure of the row");
    assert.ok(health.failures >= 4);
    assert.ok(health.staleForMs() > 0, "the content changed after the build served");
    const gaps = attempts.slice(1, 4).map((t, i) => t - attempts[i]);
    assert.ok(gaps[0] >= 190 && gaps[1] >= 390 && gaps[2] >= 390, `backoff doubles up to its cap: ${gaps}`);
    failing = false;
    await until("a good build", () => health.state().status === "ok", 5_000);
    assert.equal(health.state().error, null);
    assert.equal(health.staleForMs(), 0);
    assert.ok(health.lastSuccess !== undefined);
    const settled = attempts.length;
    // No retry is an absence: a window longer than the longest retry delay (400 ms) in which one would start.
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(attempts.length, settled, "no retry after a success");
  } finally {
    await watcher.close();
  }
});

test("dot-files and dot-folders (.git, swap files) are not content: no build", async () => {
  const dir = await tempDir("watch");
  await mkdir(join(dir, ".git"));
  let builds = 0;
  const watcher = watchContent({ contentDir: dir, debounceMs: 50, logger: quiet, build: async () => void builds++ });
  try {
    await watcher.ready;
    await writeFile(join(dir, ".git", "index"), "x");
    await writeFile(join(dir, ".review.json.swp"), "x");
    // No build is an absence: a window of ten debounces in which one would start (the real file below then shows
    // the watcher was listening).
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(builds, 0);
    await writeFile(join(dir, "review.json"), "{}");
    await until("a build for a real file", () => builds > 0, 5_000);
  } finally {
    await watcher.close();
  }
});
