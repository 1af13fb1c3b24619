// One loaded build: its files (small ones in memory, large ones held open on disk; both verified against the
// manifest's sha256 once, at load) plus the search index over reviews.json. Immutable once loaded, so a request
// that holds a snapshot never sees a mix of two builds. Loading never parses reviews.json into objects: the
// index's typed-array columns are used in place (the index file is the one large file kept in memory), and a
// review's bytes are read from reviews.json through a small block cache.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type BuildManifest,
  MANIFEST_FILE,
  BuildManifest as ManifestSchema,
} from "../../src/domain/schemas/manifest.ts";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { INDEX_FILE } from "../../src/domain/search/index-format.ts";
import { openReviewIndex, type ReviewIndex } from "../../src/domain/search/review-index.ts";
import { BlockCachedFile, HeldFile } from "./held-file.ts";

export interface FileVariant {
  sha256: string;
  size: number;
  /** The bytes, for a file held in memory (up to IN_MEMORY_MAX_BYTES, and the search index). */
  bytes?: Buffer;
  /** A larger file, served from disk (stream it; `read()` reads it whole). */
  file?: HeldFile;
  /**
   * The whole file's bytes: the held ones, or read from disk now (synchronously: for small or rare reads, such as
   * a hub delivery or an MCP resource read of the dataset; a copy still in use elsewhere is shared).
   */
  read(): Buffer;
}

export interface ServedFile {
  urlPath: string;
  type: string;
  identity: FileVariant;
  br?: FileVariant;
  gzip?: FileVariant;
}

/**
 * Files up to this size are held in memory (pages, feeds, the OpenAPI document); larger ones (reviews.json,
 * sitemaps and their compressed variants) are served from disk through a held descriptor. Small enough that the
 * sample build's reviews.json is one of the larger ones, so every test serves it from disk.
 */
export const IN_MEMORY_MAX_BYTES = 128 * 1024;
/** Blocks of reviews.json kept in memory per build for the reviews that answers are assembled from. */
const REVIEW_BLOCK_CACHE_BYTES = 8 * 1024 * 1024;

export interface Snapshot {
  manifest: BuildManifest;
  files: ReadonlyMap<string, ServedFile>;
  /** The business and its aggregate rating (the reviews are in `index`). */
  dataset: Pick<ReviewsDataset, "business" | "aggregate_rating">;
  index: ReviewIndex;
  /** Newest `updated` of the dataset as an HTTP date, or undefined for an empty dataset. */
  lastModified: string | undefined;
  /** Parsed JSON resources, for MCP tools and resources. */
  json(urlPath: string): unknown;
}

export class BuildMismatchError extends Error {
  constructor(built: string, expected: string) {
    super(
      `DIST_DIR was built for BASE_URL=${built}, but this sidecar runs with BASE_URL=${expected}. Rebuild with the same BASE_URL (npm run build) or start the sidecar with BASE_URL=${built}.`,
    );
    this.name = "BuildMismatchError";
  }
}

export class IncompleteBuildError extends Error {}

/** Read and hashed in slices, awaiting between them, so loading a large build never stalls the event loop. */
const CHUNK = 256 * 1024;

/** What one load reads with: the build's folder and one slice buffer reused for every file hashed from disk. */
interface Loading {
  distDir: string;
  slice: Buffer;
}

/** A file as the manifest lists it (a page or one of its precompressed variants). */
interface Listed {
  file: string;
  sha256: string;
  size: number;
}

const small = (listed: Listed) => listed.size <= IN_MEMORY_MAX_BYTES;

/**
 * Opens a listed file and checks it against the manifest: size and sha256. Kept in memory when `inMemory`, else
 * held open (hashed through the load's one slice buffer, so verifying a large file leaves no garbage behind).
 */
async function loadVerified(loading: Loading, listed: Listed, inMemory: boolean): Promise<FileVariant> {
  const held = await HeldFile.open(join(loading.distDir, listed.file));
  try {
    const variant = await verify(held, loading.slice, listed, inMemory);
    if (variant.bytes) held.release();
    return variant;
  } catch (e) {
    held.release();
    throw e;
  }
}

async function verify(
  held: HeldFile,
  slice: Buffer,
  { file, sha256, size }: Listed,
  inMemory: boolean,
): Promise<FileVariant> {
  // Its own 8-aligned memory (not the shared pool), so typed-array views over it need no copy.
  const bytes = inMemory ? Buffer.allocUnsafeSlow(size) : undefined;
  const hash = createHash("sha256");
  let at = 0;
  while (at < size) {
    const into = bytes ?? slice;
    const offset = bytes ? at : 0;
    const bytesRead = await held.readInto(into, offset, Math.min(CHUNK, size - at), at);
    if (bytesRead === 0) break;
    hash.update(into.subarray(offset, offset + bytesRead));
    at += bytesRead;
  }
  // A mismatch means another build swapped in while we were reading: the caller retries.
  if (at !== size || held.size !== size || hash.digest("hex") !== sha256)
    throw new IncompleteBuildError(`${file} changed while loading the build`);
  if (bytes) return { sha256, size, bytes, read: () => bytes };
  // Callers at the same time (hub deliveries of the dataset) share one copy; it goes when the last lets go.
  let whole: WeakRef<Buffer> | undefined;
  const read = () => {
    let bytes = whole?.deref();
    if (!bytes) {
      bytes = held.read();
      whole = new WeakRef(bytes);
    }
    return bytes;
  };
  return { sha256, size, file: held, read };
}

export async function loadSnapshot(distDir: string, baseUrl: string): Promise<Snapshot> {
  const manifest = ManifestSchema.parse(JSON.parse(await readFile(join(distDir, MANIFEST_FILE), "utf8")));
  if (manifest.base_url !== baseUrl) throw new BuildMismatchError(manifest.base_url, baseUrl);
  const files = new Map<string, ServedFile>();
  const loading: Loading = { distDir, slice: Buffer.allocUnsafe(CHUNK) };
  for (const [urlPath, entry] of Object.entries(manifest.files)) {
    const served: ServedFile = {
      urlPath,
      type: entry.type,
      // The search index's columns are used in place, so it is in memory whatever its size.
      identity: await loadVerified(loading, entry, small(entry) || urlPath === `/${INDEX_FILE}`),
    };
    const { br, gzip } = entry.encodings;
    if (br) served.br = await loadVerified(loading, br, small(br));
    if (gzip) served.gzip = await loadVerified(loading, gzip, small(gzip));
    files.set(urlPath, served);
  }
  const reviewsFile = files.get("/reviews.json");
  const indexFile = files.get(`/${INDEX_FILE}`);
  if (!reviewsFile || !indexFile)
    throw new Error(`${distDir} has no reviews.json or ${INDEX_FILE}: is it a build of this version of the project?`);
  const reviews = reviewsFile.identity;
  const index = openReviewIndex(
    indexFile.identity.read(),
    reviews.file ? new BlockCachedFile(reviews.file, REVIEW_BLOCK_CACHE_BYTES) : reviews.read(),
  );
  const parsed = new Map<string, unknown>();
  return {
    manifest,
    files,
    dataset: { business: index.business, aggregate_rating: index.aggregateRating },
    index,
    lastModified: manifest.last_modified ? new Date(manifest.last_modified).toUTCString() : undefined,
    json(urlPath) {
      if (!parsed.has(urlPath)) {
        const f = files.get(urlPath);
        parsed.set(urlPath, f ? JSON.parse(f.identity.read().toString("utf8")) : undefined);
      }
      return parsed.get(urlPath);
    },
  };
}
