// The build manifest: how the sidecar knows what a build contains without trusting the file system.
import * as z from "zod";

const Variant = z.object({ file: z.string(), sha256: z.string(), size: z.int() });

export const ManifestEntry = z.object({
  file: z.string().describe("Path relative to DIST_DIR"),
  type: z.string(),
  sha256: z.string(),
  size: z.int(),
  encodings: z.object({ br: Variant.optional(), gzip: Variant.optional() }),
});

export const BuildManifest = z.object({
  manifest_version: z.literal(1),
  base_url: z.string(),
  build_id: z.string().describe("Hash over every file hash"),
  last_modified: z.string().nullable().describe("Newest `updated` of the published reviews"),
  review_count: z.int(),
  content_revision: z
    .string()
    .nullable()
    .optional()
    .describe("The git commit CONTENT_DIR was at (with -dirty for uncommitted changes), or null outside git"),
  files: z.record(z.string(), ManifestEntry).describe("Keyed by URL path"),
});
export type BuildManifest = z.infer<typeof BuildManifest>;
export type ManifestEntry = z.infer<typeof ManifestEntry>;

export const MANIFEST_FILE = ".build-manifest.json";
