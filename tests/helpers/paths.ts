import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SAMPLE_CONTENT = join(ROOT, "content");

export function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `rps-${prefix}-`));
}
