// The sha256 of source files under src/domain/, for the build caches' fingerprints: a change to the code a cached
// result was computed by empties that cache.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "../domain/hash.ts";

const DOMAIN = fileURLToPath(new URL("../domain/", import.meta.url));

/** `names`: folders (every file below, recursively) and files, relative to src/domain/. */
export async function codeHash(names: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const name of names) {
    const path = join(DOMAIN, name);
    const files = name.endsWith(".ts")
      ? [path]
      : (await readdir(path, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile())
          .map((e) => join(e.parentPath, e.name))
          .sort();
    for (const f of files) parts.push(f.slice(DOMAIN.length), await readFile(f, "utf8"));
  }
  return sha256Hex(parts.join("\0"));
}

/** An installed package's version: another version of a library a cached result came from may compute another. */
export const packageVersion = async (name: string): Promise<string> =>
  (
    JSON.parse(await readFile(fileURLToPath(import.meta.resolve(`${name}/package.json`)), "utf8")) as {
      version: string;
    }
  ).version;
