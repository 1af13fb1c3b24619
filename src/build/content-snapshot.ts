// The content snapshot: what the previous build learnt about each review file, kept in BUILD_CACHE_DIR so that a
// rebuild neither reads, parses nor schema-checks a file that did not change. One JSON value a line: the first is
// {fingerprint}, each other [path, size, mtimeMs, ctimeMs, ino, takenAt, key, content, cleanUnder?], the last line
// of a path winning. `key` is the file's key in the analysis cache (sha256 of its id and text) and `content` what
// the review schema made of its text. `cleanUnder`, when present, is the guard's fingerprint (site-data.ts: the
// contact-details code, libphonenumber's version, the business's own contacts, the policy) under which the review
// was found free of customers' contact details: under the same fingerprint it is not searched again. A file is trusted from its stat alone when size, mtime, ctime and inode all match and
// both times are older than `takenAt` (when the line was taken) by more than STAT_MARGIN_MS, so a file changed in
// the same second as the snapshot (or on a filesystem with coarse timestamps) is read and hashed again; ctime
// cannot be set back by tools that restore mtime. A file that is read but hashes to the same key reuses the
// schema's result. Files with problems are never kept, and the date and catalog checks run on every build
// (src/domain/validate-content.ts), so errors are always reported. The fingerprint covers this format, the source
// of the validation code and the zod schemas, zod's version and Node's Unicode version: any change starts the
// snapshot over. A line that does not parse is a miss; a snapshot that cannot be read is ignored with a warning.
// Deleting the file is always safe.
import { readFileSync, statSync } from "node:fs";
import { appendFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { sha256Hex } from "../domain/hash.ts";
import type { ReviewContent } from "../domain/schemas/content.ts";
import { decodeContentFile, type ReviewFile } from "../domain/validate-content.ts";
import { codeHash, packageVersion } from "./code-hash.ts";
import { LINE_FILES, readLineFile, rewriteLineFile } from "./line-file.ts";

/** The layout of a line; part of the fingerprint. */
const SNAPSHOT_FORMAT = 2;
/** What a file's validated content is computed by. */
const CODE = ["schemas", "validate-content.ts", "review-dates.ts", "content-errors.ts"];
/** How much older than the snapshot a file's times must be for its stat to be trusted (coarse timestamps). */
export const STAT_MARGIN_MS = 2000;

type Line = [string, number, number, number, number, number, string, ReviewContent, string?];

/** The analysis cache's key of a review file (analysis-cache.ts). */
export const reviewKey = (id: string, text: string): string => sha256Hex(`${id}\n${text}`);
const idOf = (path: string) => path.replace(/^.*\//, "").replace(/\.json$/, "");

interface Loaded {
  entries: Map<string, Line>;
  /** Lines in the file, or -1 when it is to be written whole. */
  lines: number;
  warning?: string;
}

async function load(path: string, fingerprint: string): Promise<Loaded> {
  const entries = new Map<string, Line>();
  let bytes: Buffer;
  try {
    bytes = await readLineFile(path); // decoded line by line, as the analysis cache (cache-line.ts says why)
  } catch {
    return { entries, lines: -1 }; // none yet
  }
  const first = bytes.indexOf(0x0a);
  let head: { fingerprint?: string } | undefined;
  try {
    head = first === -1 ? undefined : (JSON.parse(bytes.toString("utf8", 0, first)) as { fingerprint?: string });
  } catch {
    head = undefined;
  }
  if (head?.fingerprint === undefined) {
    return { entries, lines: -1, warning: `warning: ${path} was unreadable and is ignored (it will be rewritten)` };
  }
  if (head.fingerprint !== fingerprint) return { entries, lines: -1 }; // other code: start over, silently
  let lines = 0;
  let start = first + 1;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    if (end > start) {
      lines++;
      try {
        const line = JSON.parse(bytes.toString("utf8", start, end)) as Line;
        if (Array.isArray(line) && (line.length === 8 || line.length === 9) && typeof line[0] === "string") {
          entries.set(line[0], line);
        }
      } catch {
        // an interrupted append: that file is read again
      }
    }
    start = end + 1;
  }
  return { entries, lines };
}

export interface SnapshotRead {
  files: ReviewFile[];
  /** The analysis cache's key of every file, by path. */
  keys: Map<string, string>;
  /** Files trusted from their stat alone / read again. */
  statOnly: number;
  read: number;
  warnings: string[];
  /** The guard's fingerprint under which a file with this very text was found free of contact details. */
  cleanUnder: (path: string) => string | undefined;
  /**
   * Records the files that passed validation (`valid`: their validated content by path) for the next build, and
   * which of them `guard` found free of contact details under its fingerprint (none given: as recorded before).
   */
  save: (valid: ReadonlyMap<string, ReviewContent>, guard?: GuardResult) => Promise<void>;
}

/** Which files the contact-details guard found free of contact details, under which fingerprint. */
export interface GuardResult {
  fingerprint: string;
  clean: ReadonlySet<string>;
}

/**
 * [size, mtimeMs, ctimeMs, ino] of each file, in order, started before the snapshot is read and awaited after
 * (a worker thread for this overlapped them only above 20,000 files, and saved little there).
 */
export async function statFiles(dir: string, paths: readonly string[]): Promise<Float64Array<ArrayBuffer>> {
  return statAll(dir, paths);
}

/** [size, mtimeMs, ctimeMs, ino] of each file, in order, one after another on this thread (see read-content.ts). */
export function statAll(dir: string, paths: readonly string[]): Float64Array<ArrayBuffer> {
  const out = new Float64Array(paths.length * 4);
  paths.forEach((path, i) => {
    const s = statSync(join(dir, path));
    out.set([s.size, s.mtimeMs, s.ctimeMs, s.ino], i * 4);
  });
  return out;
}

/** The review files at `paths` (relative to `contentDir`), from the snapshot in `cacheDir` where it still holds. */
export async function readReviewFiles(
  contentDir: string,
  paths: readonly string[],
  cacheDir: string | undefined,
): Promise<SnapshotRead> {
  const file = cacheDir === undefined ? undefined : join(cacheDir, LINE_FILES.snapshot);
  const takenAt = Date.now(); // before any file is looked at
  const stats = file ? statFiles(contentDir, paths) : undefined;
  stats?.catch(() => undefined); // awaited below, after the snapshot is read
  const fingerprint = sha256Hex(
    JSON.stringify([SNAPSHOT_FORMAT, await codeHash(CODE), await packageVersion("zod"), process.versions.unicode]),
  );
  const old = file ? await load(file, fingerprint) : { entries: new Map<string, Line>(), lines: -1 };
  const statOf = await stats;
  const files: ReviewFile[] = [];
  const keys = new Map<string, string>();
  /** New lines, for files whose line changed (their content not yet known: set after validation). */
  const fresh: Fresh[] = [];
  const kept: Line[] = [];
  /** The guard's fingerprint recorded with each file whose text is the one recorded. */
  const clean = new Map<string, string | undefined>();
  let statOnly = 0;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i];
    // Without a snapshot to keep, no file is trusted from its stat: none is taken.
    const [size, mtime, ctime, ino] = statOf ? statOf.subarray(i * 4, i * 4 + 4) : [0, 0, 0, 0];
    const line = old.entries.get(path);
    if (
      line &&
      line[1] === size &&
      line[2] === mtime &&
      line[3] === ctime &&
      line[4] === ino &&
      Math.max(mtime, ctime) < line[5] - STAT_MARGIN_MS
    ) {
      statOnly++;
      files.push({ path, content: line[7] });
      keys.set(path, line[6]);
      kept.push(line);
      clean.set(path, line[8]);
      continue;
    }
    const decoded = decodeContentFile(path, readFileSync(join(contentDir, path)));
    const key = reviewKey(idOf(path), decoded.text);
    keys.set(path, key);
    if (line && line[6] === key && decoded.unreadable === undefined) {
      files.push({ path, content: line[7] });
      clean.set(path, line[8]);
    } else files.push(decoded);
    fresh.push({ path, stat: [size, mtime, ctime, ino], key, cleanUnder: clean.get(path) });
  }
  return {
    files,
    keys,
    statOnly,
    read: paths.length - statOnly,
    warnings: old.warning ? [old.warning] : [],
    cleanUnder: (path) => clean.get(path),
    save: async (valid, guard) => {
      if (!file || !cacheDir) return;
      await writeSnapshot(cacheDir, file, fingerprint, old.lines, kept, fresh, takenAt, valid, guard);
    },
  };
}

type Fresh = { path: string; stat: [number, number, number, number]; key: string; cleanUnder?: string };

/** A line's last member: the guard's fingerprint if it found the file clean, else none. */
const withClean = (line: Line, cleanUnder: string | undefined): Line => {
  const out = line.slice(0, 8) as Line;
  if (cleanUnder !== undefined) out.push(cleanUnder);
  return out;
};

async function writeSnapshot(
  dir: string,
  path: string,
  fingerprint: string,
  lines: number,
  kept: Line[],
  fresh: Fresh[],
  takenAt: number,
  valid: ReadonlyMap<string, ReviewContent>,
  guard: GuardResult | undefined,
): Promise<void> {
  const cleanUnder = (path: string, before: string | undefined) =>
    guard === undefined ? before : guard.clean.has(path) ? guard.fingerprint : undefined;
  let added = "";
  let count = 0;
  for (const f of fresh) {
    const content = valid.get(f.path);
    if (content === undefined) continue;
    const line = withClean([f.path, ...f.stat, takenAt, f.key, content], cleanUnder(f.path, f.cleanUnder));
    added += `${JSON.stringify(line)}\n`;
    count++;
  }
  // A kept line whose guard result changed (another policy, business or code) is written again as it was taken.
  let changed = "";
  let rewritten = 0;
  for (let i = 0; i < kept.length; i++) {
    const now = cleanUnder(kept[i][0], kept[i][8]);
    if (now === kept[i][8]) continue;
    kept[i] = withClean(kept[i], now);
    changed += `${JSON.stringify(kept[i])}\n`;
    rewritten++;
  }
  await mkdir(dir, { recursive: true });
  // Many lines written again (the guard's fingerprint changed): the whole file, rather than twice its lines.
  const append = lines >= 0 && lines + count + rewritten <= 2 * (kept.length + count) + 1000;
  if (append && rewritten <= kept.length / 10) {
    // A leading newline ends a line an interrupted append may have left open.
    if (count + rewritten > 0) await appendFile(path, `\n${changed}${added}`);
    return;
  }
  await rewriteLineFile(
    path,
    fingerprint,
    kept.map((line) => `${JSON.stringify(line)}\n`),
    added,
  );
}
