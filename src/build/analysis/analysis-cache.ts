// The incremental build: each review's published record (analysis included) is kept in BUILD_CACHE_DIR, keyed
// by its id and the sha256 of its file, under a fingerprint of everything else the record depends on (the
// business and its catalog, the lexicon version, the source of the analysis and publishing code, Node's Unicode
// tables). A rebuild analyses only new and changed reviews; insights and the index are recomputed from the
// records as usual, so a cached build is byte-identical to a clean one. Deleting the folder is always safe.
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LEXICON_VERSION } from "../../domain/analysis/sentiment.ts";
import { sha256Hex } from "../../domain/hash.ts";
import { createReviewPublisher, type PublishReview } from "../../domain/publish-reviews.ts";
import type { RawFile, ValidContent } from "../../domain/validate-content.ts";
import { analyseInWorkers } from "./analyse-in-workers.ts";

type Published = ReturnType<PublishReview>;

const CACHE_FILE = "analysis.json";
const DOMAIN = fileURLToPath(new URL("../../domain/", import.meta.url));
/** What a published record is computed by; a change to any of these files empties the cache. */
const CODE = ["analysis", "schemas", "publish-reviews.ts", "validate-content.ts"];

interface CacheFile {
  fingerprint: string;
  entries: Record<string, Published>;
}

async function codeHash(): Promise<string> {
  const parts: string[] = [];
  for (const name of CODE) {
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

async function readCache(path: string, fingerprint: string): Promise<Record<string, Published>> {
  try {
    const file = JSON.parse(await readFile(path, "utf8")) as CacheFile;
    return file.fingerprint === fingerprint && file.entries ? file.entries : {};
  } catch {
    return {}; // none yet, or unreadable: a full analysis rebuilds it
  }
}

export interface CachedAnalysis {
  publish: PublishReview;
  analysed: number;
  cached: number;
}

/** Publishes every verified review now (from the cache or by analysis) and returns a publisher over the results. */
export async function analyseWithCache(
  content: ValidContent,
  files: readonly RawFile[],
  cacheDir: string | undefined,
): Promise<CachedAnalysis> {
  const textOf = new Map(files.map((f) => [f.path, f.text]));
  const verified = content.reviews.filter((r) => r.content.verified);
  const keyOf = (r: (typeof verified)[number]) =>
    sha256Hex(`${r.id}\n${textOf.get(r.file) ?? JSON.stringify(r.content)}`);
  const keys = verified.map(keyOf);
  const fingerprint = sha256Hex(
    JSON.stringify([await codeHash(), LEXICON_VERSION, process.versions.unicode, content.business]),
  );
  const path = cacheDir === undefined ? undefined : join(cacheDir, CACHE_FILE);
  const old = path ? await readCache(path, fingerprint) : {};

  const missing = verified.flatMap((r, i) => (old[keys[i]] ? [] : [{ id: r.id, content: r.content, i }]));
  const fresh = await analyseInWorkers({
    business: content.business,
    items: missing.map(({ id, content: c }) => ({ id, content: c })),
  });
  const entries: Record<string, Published> = {};
  const byId = new Map<string, Published>();
  verified.forEach((r, i) => {
    const hit = old[keys[i]];
    if (hit) {
      entries[keys[i]] = hit;
      byId.set(r.id, hit);
    }
  });
  missing.forEach((m, j) => {
    entries[keys[m.i]] = fresh[j];
    byId.set(m.id, fresh[j]);
  });

  const stale = Object.keys(old).length !== verified.length - missing.length;
  if (path && cacheDir && (missing.length > 0 || stale)) {
    await mkdir(cacheDir, { recursive: true });
    const tmp = `${path}.tmp-${process.pid}`;
    await writeFile(tmp, JSON.stringify({ fingerprint, entries } satisfies CacheFile));
    await rename(tmp, path);
  }
  const fallback = createReviewPublisher(content.business);
  return {
    publish: (id, c) => byId.get(id) ?? fallback(id, c),
    analysed: missing.length,
    cached: verified.length - missing.length,
  };
}
