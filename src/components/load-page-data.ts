// The data a page renders: the sidecar's current build (on demand), or the build's own site data (prerendering and
// astro dev), with a search index made once.
import { getSiteData } from "../build/site-data.ts";
import { type PageData, pageDataFromDataset } from "../domain/pages/page-data.ts";
import { renderSitemaps } from "../domain/pages/sitemap.ts";
import { buildReviewIndex } from "../domain/search/review-index.ts";

let built: Promise<PageData> | undefined;

export function loadPageData(locals: App.Locals): Promise<PageData> {
  if (locals.site) return Promise.resolve(locals.site);
  // The pages the build prerenders (home, 404, sitemap) need no search index: made only if asked for (astro dev).
  built ??= getSiteData().then((s) =>
    pageDataFromDataset(s.baseUrl, s.dataset, s.insights, () =>
      buildReviewIndex(s.dataset.business, s.dataset.reviews),
    ),
  );
  return built;
}

const sitemaps = new WeakMap<PageData, Map<string, string>>();

/** The sitemap files of a build, rendered once for /sitemap.xml and its parts. */
export function sitemapFiles(data: PageData): Map<string, string> {
  let files = sitemaps.get(data);
  if (!files) {
    files = renderSitemaps(data);
    sitemaps.set(data, files);
  }
  return files;
}
