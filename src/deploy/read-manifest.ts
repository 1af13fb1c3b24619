// The one reader of a build folder's manifest (publish, the static-folder sync, nginx-config, npm start).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type BuildManifest, MANIFEST_FILE, BuildManifest as ManifestSchema } from "../domain/schemas/manifest.ts";

/** The manifest of the build in `dir`; undefined when there is none or it is not a valid manifest. */
export async function readManifest(dir: string): Promise<BuildManifest | undefined> {
  try {
    return ManifestSchema.parse(JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8")));
  } catch {
    return undefined;
  }
}
