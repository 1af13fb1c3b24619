// sitemaps.org protocol: every review permalink, entity page and list page; an index of parts past the limit.
import { escapeXml as x } from "../feeds/escape.ts";
import { newestUpdated } from "../order.ts";
import { entityIndex } from "./entity-page.ts";
import type { PageData } from "./page-data.ts";
import {
  ENTITY_KINDS,
  type EntityKind,
  entityPath,
  PAGE_PATHS,
  reviewPath,
  reviewsPageCount,
  reviewsPagePath,
  SITEMAP_MAX_URLS,
  sitemapPartPath,
} from "./site-paths.ts";

interface SitemapUrl {
  path: string;
  lastmod: string | undefined;
}

/** Needs no search index: the build renders the sitemap without one. */
export function sitemapUrls(data: Pick<PageData, "dataset" | "reviewCount" | "allReviews" | "insights">): SitemapUrl[] {
  // One pass over the reviews: in the sidecar each one is parsed from its bytes. The newest `updated` of them all
  // is the insights' (worked out once, where they were made).
  const reviews = data.allReviews();
  const newest = data.insights.generated_from.last_updated ?? undefined;
  const urls: SitemapUrl[] = [{ path: PAGE_PATHS.home, lastmod: newest }];
  for (let page = 1; page <= reviewsPageCount(data.reviewCount); page++) {
    urls.push({ path: reviewsPagePath(page), lastmod: newest });
  }
  for (const kind of Object.keys(ENTITY_KINDS) as EntityKind[]) {
    urls.push({ path: ENTITY_KINDS[kind].path, lastmod: newest });
    for (const e of entityIndex(data, kind)) {
      urls.push({ path: entityPath(kind, e.id), lastmod: e.lastmod });
    }
  }
  for (const r of reviews) urls.push({ path: reviewPath(r.id), lastmod: r.updated });
  return urls;
}

const urlset = (baseUrl: string, urls: SitemapUrl[]) =>
  [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map(
      (u) => `<url><loc>${x(baseUrl + u.path)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ""}</url>`,
    ),
    "</urlset>",
    "",
  ].join("\n");

/** The files to publish, by URL path: /sitemap.xml alone, or an index at /sitemap.xml and its parts. */
export function renderSitemaps(
  data: Pick<PageData, "dataset" | "baseUrl" | "reviewCount" | "allReviews" | "insights">,
  maxUrls = SITEMAP_MAX_URLS,
): Map<string, string> {
  const urls = sitemapUrls(data);
  const files = new Map<string, string>();
  if (urls.length <= maxUrls) {
    files.set(PAGE_PATHS.sitemap, urlset(data.baseUrl, urls));
    return files;
  }
  const parts: string[] = [];
  for (let i = 0; i * maxUrls < urls.length; i++) {
    const chunk = urls.slice(i * maxUrls, (i + 1) * maxUrls);
    const path = sitemapPartPath(i + 1);
    files.set(path, urlset(data.baseUrl, chunk));
    const lastmod = newestUpdated(chunk.flatMap((u) => (u.lastmod ? [{ updated: u.lastmod }] : [])));
    parts.push(
      `<sitemap><loc>${x(data.baseUrl + path)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</sitemap>`,
    );
  }
  files.set(
    PAGE_PATHS.sitemap,
    [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...parts,
      "</sitemapindex>",
      "",
    ].join("\n"),
  );
  return files;
}
