// The data files of a build, by URL path: every published file but the HTML pages, made from the site data alone
// (the build writes them; `astro dev` serves them through src/dev/site-file.ts). Their bytes are what Astro's
// endpoints sent when it prerendered them.
import { DATA_PATHS } from "../domain/feeds/feed-items.ts";
import { renderLlmsTxt, renderRobots } from "../domain/pages/crawler-files.ts";
import { type PageData, pageDataFromDataset } from "../domain/pages/page-data.ts";
import { PAGE_PATHS, SERVICE_PATHS } from "../domain/pages/site-paths.ts";
import { renderSitemaps } from "../domain/pages/sitemap.ts";
import { buildReviewIndex } from "../domain/search/review-index.ts";
import { widgetFiles } from "../domain/widget/widget-data.ts";
import type { SiteData } from "./site-data.ts";

/** The pages' data at build time: the dataset in memory, the search index made only if a page asks for it. */
export function buildPageData(site: SiteData): PageData {
  return pageDataFromDataset(site.baseUrl, site.dataset, site.insights, () =>
    buildReviewIndex(site.dataset.business, site.dataset.reviews),
  );
}

/** `page`: buildPageData(site) in a build, the page data `astro dev` loads in development. */
export function siteFiles(site: SiteData, page: PageData): Map<string, string | Uint8Array<ArrayBuffer>> {
  const files = new Map<string, string | Uint8Array<ArrayBuffer>>([
    [DATA_PATHS.dataset, site.datasetJson],
    [DATA_PATHS.json, JSON.stringify(site.jsonFeed)],
    [DATA_PATHS.atom, site.atom],
    [SERVICE_PATHS.insights, JSON.stringify(site.insights)],
    [SERVICE_PATHS.openapi, JSON.stringify(site.openapi)],
    [PAGE_PATHS.robots, renderRobots(site.baseUrl)],
    [PAGE_PATHS.llms, renderLlmsTxt(site.dataset, site.baseUrl)],
  ]);
  for (const [path, body] of renderSitemaps(page)) files.set(path, body);
  for (const [path, body] of widgetFiles(site.baseUrl, site.dataset)) files.set(path, body);
  return files;
}
