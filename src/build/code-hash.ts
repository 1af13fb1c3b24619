// The sha256 of source files under src/domain/ or of a workspace package, for the build caches' fingerprints: a
// change to the code a cached result was computed by empties that cache.
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "../domain/hash.ts";

const DOMAIN = fileURLToPath(new URL("../domain/", import.meta.url));

/** `names`: folders (every file below, recursively) and files, relative to src/domain/. */
export const codeHash = (names: readonly string[]): Promise<string> => hashFiles(DOMAIN, names);

/**
 * A workspace package's code: its entry point and its src/ (not its tests, scripts, labelled data or docs, which
 * compute nothing a build keeps). Found the way an import of the package finds it.
 */
export async function packageCodeHash(name: string): Promise<string> {
  const entry = fileURLToPath(import.meta.resolve(name));
  const root = `${dirname(entry)}/`;
  return hashFiles(root, [entry.slice(root.length), "src"]);
}

/** `names` relative to `root` (with a trailing slash): files, or folders for every file below them. */
async function hashFiles(root: string, names: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const name of names) {
    const path = join(root, name);
    const files = name.endsWith(".ts")
      ? [path]
      : (await readdir(path, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile())
          .map((e) => join(e.parentPath, e.name))
          .sort();
    for (const f of files) parts.push(f.slice(root.length), await readFile(f, "utf8"));
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
