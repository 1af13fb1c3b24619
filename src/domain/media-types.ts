// Content types of published files (DECISIONS.md): Astro does not record them, so the manifest does.
export const JSON_MEDIA_TYPE = "application/json; charset=utf-8";

/**
 * The JSON Feed's one story (DECISIONS.md): it is served as `application/json` (SPEC.md), and every link that a
 * program follows (Atom's rel="related", OpenAPI, llms.txt) says the same. Only the HTML page's discovery
 * `<link rel="alternate">` names `application/feed+json`, the type JSON Feed readers look for (JSON Feed 1.1,
 * "Discovery"); it describes the document's format, the response's Content-Type stays the SPEC's.
 */
export const JSON_FEED_LINK_TYPE = "application/json";
export const JSON_FEED_DISCOVERY_TYPE = "application/feed+json";

/** Also the `types` block of the generated nginx config. */
export const BY_EXTENSION: Readonly<Record<string, string>> = {
  ".json": JSON_MEDIA_TYPE,
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".ico": "image/x-icon",
  ".png": "image/png",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
};

/** Paths whose type their extension does not tell. */
export const BY_PATH: Readonly<Record<string, string>> = {
  "/feed.xml": "application/atom+xml; charset=utf-8",
};

/** `file` is the path in DIST_DIR (index.html for "/"), `urlPath` where it is served. */
export function mediaTypeOf(urlPath: string, file = urlPath): string {
  if (BY_PATH[urlPath]) return BY_PATH[urlPath];
  const ext = file.slice(file.lastIndexOf(".")).toLowerCase();
  return BY_EXTENSION[ext] ?? "application/octet-stream";
}

export function isCompressible(mediaType: string): boolean {
  return /^(text\/|application\/(json|atom\+xml|xml)|image\/svg\+xml)/.test(mediaType);
}
