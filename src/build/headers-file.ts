// The `_headers` file (the format Netlify and Cloudflare Pages read): the sidecar's headers for every static file.
// One rule per file keeps each header written once per path (both hosts join a header that several matching rules
// set); the headers every file shares go under /*, the hashed assets' Cache-Control under /_astro/*.
import type { BuildManifest } from "../domain/schemas/manifest.ts";
import { CACHE_IMMUTABLE, IMMUTABLE_PREFIX, staticFileHeaders } from "../domain/static-headers.ts";

/** Headers that are the same for every file. */
const SHARED = ["Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "X-Content-Type-Options"];

function rule(pattern: string, headers: Record<string, string>): string {
  return [pattern, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join("\n");
}

export function renderHeadersFile(manifest: BuildManifest): string {
  const rules: string[] = [];
  let shared: Record<string, string> | undefined;
  for (const [urlPath, entry] of Object.entries(manifest.files)) {
    const all = staticFileHeaders(manifest.base_url, {
      urlPath,
      type: entry.type,
      precompressed: Boolean(entry.encodings.br || entry.encodings.gzip),
    });
    shared ??= Object.fromEntries(SHARED.map((name) => [name, all[name]]));
    // Hashed assets: the host's own type for their extension is right, and they share one Cache-Control rule.
    if (urlPath.startsWith(IMMUTABLE_PREFIX)) continue;
    rules.push(rule(urlPath, Object.fromEntries(Object.entries(all).filter(([name]) => !SHARED.includes(name)))));
  }
  const head = [
    "# Written by the build for static hosts that read Netlify-style header rules (Netlify, Cloudflare Pages).",
    "# The same headers as the sidecar (src/domain/static-headers.ts); validators and encodings are the host's.",
  ];
  const wildcards = shared
    ? [rule("/*", shared), rule(`${IMMUTABLE_PREFIX}*`, { "Cache-Control": CACHE_IMMUTABLE })]
    : [];
  return `${[...head, ...wildcards, ...rules].join("\n")}\n`;
}
