// The data a page renders: the sidecar's current build (on demand), or the build's own site data (prerendering and
// astro dev), with a search index made once.
import { getSiteData } from "../build/site-data.ts";
import type { PageData } from "../domain/pages/page-data.ts";
import { renderSitemaps } from "../domain/pages/sitemap.ts";
import { buildReviewIndex, type ReviewIndex } from "../domain/search/review-index.ts";

let built: Promise<PageData> | undefined;

export function loadPageData(locals: App.Locals): Promise<PageData> {
  if (locals.site) return Promise.resolve(locals.site);
  built ??= getSiteData().then((s) => {
    // The pages the build prerenders (home, 404, sitemap) need no search index: made only if asked for (astro dev).
    let index: ReviewIndex | undefined;
    return {
      baseUrl: s.baseUrl,
      dataset: s.dataset,
      insights: s.insights,
      get index() {
        index ??= buildReviewIndex(s.dataset.business, s.dataset.reviews);
        return index;
      },
    };
  });
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
