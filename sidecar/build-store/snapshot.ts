// One loaded build: every file's bytes (and precompressed variants) plus the parsed dataset and its indexes.
// Immutable once loaded, so a request that holds a snapshot never sees a mix of two builds.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { sha256Hex } from "../../src/domain/hash.ts";
import {
  type BuildManifest,
  MANIFEST_FILE,
  BuildManifest as ManifestSchema,
} from "../../src/domain/schemas/manifest.ts";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { buildReviewIndex, type ReviewIndex } from "../../src/domain/search/review-index.ts";

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
  dataset: ReviewsDataset;
  index: ReviewIndex;
  /** Newest `updated` of the dataset as an HTTP date, or undefined for an empty dataset. */
  lastModified: string | undefined;
  /** Parsed JSON resources, for MCP tools and resources. */
  json(urlPath: string): unknown;
  /** The exact bytes of the review at `rank` inside reviews.json (what JSON.stringify of it gives). */
  reviewBytes(rank: number): Buffer;
}

/**
 * Locates every review inside the raw reviews.json, so responses can be assembled from byte slices instead of
 * serialising the same objects on every request. reviews.json is JSON.stringify({business, aggregate_rating,
 * reviews}), so each review's text there is JSON.stringify(review); the first and last are checked.
 */
function reviewSlices(raw: Buffer, reviews: readonly unknown[]): (rank: number) => Buffer {
  const marker = Buffer.from('"reviews":[');
  let at = raw.lastIndexOf(marker) + marker.length;
  const offsets = new Float64Array(reviews.length + 1);
  for (let i = 0; i < reviews.length; i++) {
    offsets[i] = at;
    at += Buffer.byteLength(JSON.stringify(reviews[i])) + 1;
  }
  offsets[reviews.length] = at;
  const slice = (rank: number) => raw.subarray(offsets[rank], offsets[rank + 1] - 1);
  const exact = (rank: number) => slice(rank).equals(Buffer.from(JSON.stringify(reviews[rank])));
  if (reviews.length === 0 || (exact(0) && exact(reviews.length - 1))) return slice;
  return (rank) => Buffer.from(JSON.stringify(reviews[rank]));
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

async function readVerified(distDir: string, file: string, sha256: string): Promise<FileVariant> {
  const bytes = await readFile(join(distDir, file));
  const actual = sha256Hex(bytes);
  // A mismatch means another build swapped in while we were reading: the caller retries.
  if (actual !== sha256) throw new IncompleteBuildError(`${file} changed while loading the build`);
  return { bytes, sha256 };
}

export async function loadSnapshot(distDir: string, baseUrl: string): Promise<Snapshot> {
  const manifest = ManifestSchema.parse(JSON.parse(await readFile(join(distDir, MANIFEST_FILE), "utf8")));
  if (manifest.base_url !== baseUrl) throw new BuildMismatchError(manifest.base_url, baseUrl);
  const files = new Map<string, ServedFile>();
  for (const [urlPath, entry] of Object.entries(manifest.files)) {
    const served: ServedFile = {
      urlPath,
      type: entry.type,
      identity: await readVerified(distDir, entry.file, entry.sha256),
    };
    if (entry.encodings.br) served.br = await readVerified(distDir, entry.encodings.br.file, entry.encodings.br.sha256);
    if (entry.encodings.gzip)
      served.gzip = await readVerified(distDir, entry.encodings.gzip.file, entry.encodings.gzip.sha256);
    files.set(urlPath, served);
  }
  const reviewsFile = files.get("/reviews.json");
  if (!reviewsFile) throw new Error(`${distDir} has no reviews.json: is it a build of this project?`);
  const dataset = JSON.parse(reviewsFile.identity.bytes.toString("utf8")) as ReviewsDataset;
  const parsed = new Map<string, unknown>([["/reviews.json", dataset]]);
  const reviewBytes = reviewSlices(reviewsFile.identity.bytes, dataset.reviews);
  return {
    reviewBytes,
    manifest,
    files,
    dataset,
    index: buildReviewIndex(dataset.business, dataset.reviews),
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
