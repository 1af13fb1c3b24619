// One loaded build: every file's bytes (and precompressed variants) plus the search index over reviews.json.
// Immutable once loaded, so a request that holds a snapshot never sees a mix of two builds. Loading never
// parses reviews.json into objects: the index's typed-array columns are used in place over the file's bytes.
import { createHash } from "node:crypto";
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type BuildManifest,
  MANIFEST_FILE,
  BuildManifest as ManifestSchema,
} from "../../src/domain/schemas/manifest.ts";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { INDEX_FILE } from "../../src/domain/search/index-format.ts";
import { openReviewIndex, type ReviewIndex } from "../../src/domain/search/review-index.ts";

export interface FileVariant {
  bytes: Buffer;
  sha256: string;
}

export interface ServedFile {
  urlPath: string;
  type: string;
  identity: FileVariant;
  br?: FileVariant;
  gzip?: FileVariant;
}

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
  /** The exact bytes of the review at `rank` inside reviews.json (what JSON.stringify of it gives). */
  reviewBytes(rank: number): Buffer;
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
const CHUNK = 1 << 20;

async function readVerified(distDir: string, file: string, sha256: string, size: number): Promise<FileVariant> {
  const handle = await open(join(distDir, file), "r");
  try {
    // Its own 8-aligned memory (not the shared pool), so typed-array views over it need no copy.
    const bytes = Buffer.allocUnsafeSlow(size);
    const hash = createHash("sha256");
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, Math.min(CHUNK, size - at), at);
      if (bytesRead === 0) break;
      hash.update(bytes.subarray(at, at + bytesRead));
      at += bytesRead;
    }
    const extra = await handle.read(Buffer.alloc(1), 0, 1, at);
    // A mismatch means another build swapped in while we were reading: the caller retries.
    if (at !== size || extra.bytesRead !== 0 || hash.digest("hex") !== sha256)
      throw new IncompleteBuildError(`${file} changed while loading the build`);
    return { bytes, sha256 };
  } finally {
    await handle.close();
  }
}

export async function loadSnapshot(distDir: string, baseUrl: string): Promise<Snapshot> {
  const manifest = ManifestSchema.parse(JSON.parse(await readFile(join(distDir, MANIFEST_FILE), "utf8")));
  if (manifest.base_url !== baseUrl) throw new BuildMismatchError(manifest.base_url, baseUrl);
  const files = new Map<string, ServedFile>();
  for (const [urlPath, entry] of Object.entries(manifest.files)) {
    const served: ServedFile = {
      urlPath,
      type: entry.type,
      identity: await readVerified(distDir, entry.file, entry.sha256, entry.size),
    };
    const { br, gzip } = entry.encodings;
    if (br) served.br = await readVerified(distDir, br.file, br.sha256, br.size);
    if (gzip) served.gzip = await readVerified(distDir, gzip.file, gzip.sha256, gzip.size);
    files.set(urlPath, served);
  }
  const reviewsFile = files.get("/reviews.json");
  const indexFile = files.get(`/${INDEX_FILE}`);
  if (!reviewsFile || !indexFile)
    throw new Error(`${distDir} has no reviews.json or ${INDEX_FILE}: is it a build of this version of the project?`);
  const index = openReviewIndex(indexFile.identity.bytes, reviewsFile.identity.bytes);
  const parsed = new Map<string, unknown>();
  return {
    reviewBytes: index.reviewBytes,
    manifest,
    files,
    dataset: { business: index.business, aggregate_rating: index.aggregateRating },
    index,
    lastModified: manifest.last_modified ? new Date(manifest.last_modified).toUTCString() : undefined,
    json(urlPath) {
      if (!parsed.has(urlPath)) {
        const f = files.get(urlPath);
        parsed.set(urlPath, f ? JSON.parse(f.identity.bytes.toString("utf8")) : undefined);
      }
      return parsed.get(urlPath);
    },
  };
}
