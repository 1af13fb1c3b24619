// The build's entry points restart themselves once with glibc's malloc on transparent huge pages
// (src/build/huge-pages.ts): same process, same arguments, same exit code; an operator's own setting wins.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { onHugePages, tunablesWithHugePages } from "../../src/build/huge-pages.ts";
import { contentFixture } from "../helpers/build.ts";
import { ROOT, tempDir } from "../helpers/paths.ts";

const run = promisify(execFile);
const linux = process.platform === "linux";

test("tunablesWithHugePages adds the tunable to what is set, and leaves an operator's own choice alone", () => {
  assert.equal(tunablesWithHugePages(undefined), "glibc.malloc.hugetlb=1");
  assert.equal(tunablesWithHugePages(""), "glibc.malloc.hugetlb=1");
  assert.equal(tunablesWithHugePages("glibc.malloc.arena_max=2"), "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  assert.equal(tunablesWithHugePages("glibc.malloc.hugetlb=0"), undefined);
  assert.equal(tunablesWithHugePages("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"), undefined);
  assert.equal(onHugePages("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"), true);
  assert.equal(onHugePages("glibc.malloc.hugetlb=0"), false);
  assert.equal(onHugePages(undefined), false);
});

/** A script that reports its process id and GLIBC_TUNABLES before and after restartWithHugePages, then exits 3. */
async function probeScript(): Promise<string> {
  const script = join(await tempDir("huge-pages"), "probe.ts");
  const module = JSON.stringify(join(ROOT, "src/build/huge-pages.ts"));
  await writeFile(
    script,
    `import { writeSync } from "node:fs";
import { restartWithHugePages } from ${module};
const say = (when: string) => writeSync(1, \`\${when} \${process.pid} \${process.env.GLIBC_TUNABLES ?? "-"} \${process.argv.slice(2).join(",")}\\n\`);
say("before");
restartWithHugePages();
say("after");
process.exit(3);
`,
  );
  return script;
}

async function probe(env: Record<string, string | undefined>): Promise<{ lines: string[][]; code: number }> {
  const script = await probeScript();
  const childEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const out = await run(process.execPath, [script, "a", "b c"], { env: childEnv }).then(
    (r) => ({ stdout: r.stdout, code: 0 }),
    (e: { stdout: string; code: number }) => ({ stdout: e.stdout, code: e.code }),
  );
  return {
    lines: out.stdout
      .trim()
      .split("\n")
      .map((l) => l.split(" ")),
    code: out.code,
  };
}

test("restartWithHugePages runs the same process again once, with the tunable, the same arguments and exit code", async () => {
  const { lines, code } = await probe({ GLIBC_TUNABLES: undefined });
  assert.equal(code, 3);
  if (!linux) {
    assert.deepEqual(
      lines.map((l) => l[0]),
      ["before", "after"],
    );
    return;
  }
  assert.deepEqual(
    lines.map((l) => l[0]),
    ["before", "before", "after"],
  );
  const pids = new Set(lines.map((l) => l[1]));
  assert.equal(pids.size, 1, "one process id throughout (execve, not a child)");
  assert.deepEqual(
    lines.map((l) => l[2]),
    ["-", "glibc.malloc.hugetlb=1", "glibc.malloc.hugetlb=1"],
  );
  for (const l of lines) assert.equal(l.slice(3).join(" "), "a,b c");
});

test("an operator's glibc.malloc.hugetlb setting is kept: no restart", async () => {
  const { lines, code } = await probe({ GLIBC_TUNABLES: "glibc.malloc.hugetlb=0" });
  assert.equal(code, 3);
  assert.deepEqual(
    lines.map((l) => [l[0], l[2]]),
    [
      ["before", "glibc.malloc.hugetlb=0"],
      ["after", "glibc.malloc.hugetlb=0"],
    ],
  );
});

test("npm run build runs with huge pages unless the operator said otherwise (--timings reports it)", async () => {
  const content = await contentFixture();
  const build = async (tunables: string | undefined) => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      CONTENT_DIR: content,
      DIST_DIR: join(await tempDir("dist"), "dist"),
      BUILD_CACHE_DIR: await tempDir("cache"),
      BASE_URL: "http://localhost:4321",
      GLIBC_TUNABLES: tunables,
    };
    if (tunables === undefined) delete env.GLIBC_TUNABLES;
    const { stdout } = await run(process.execPath, [join(ROOT, "scripts/build.ts"), "--timings"], { cwd: ROOT, env });
    return JSON.parse(stdout.trim().split("\n").at(-1) as string).hugePages as boolean;
  };
  assert.equal(await build(undefined), linux);
  assert.equal(await build("glibc.malloc.hugetlb=0"), false);
});
