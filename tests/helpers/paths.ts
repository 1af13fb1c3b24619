import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SAMPLE_CONTENT = join(ROOT, "content");

/** Every folder tempDir made in this test process: removed when the process exits, unless KEEP_TEST_DIRS is set. */
const made = new Set<string>();
process.once("exit", () => {
  if (process.env.KEEP_TEST_DIRS) return;
  for (const dir of made) rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
});

export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `rps-${prefix}-`));
  made.add(dir);
  return dir;
}
