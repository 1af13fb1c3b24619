// The data a page renders: the sidecar's current build (on demand), or the build's own site data (prerendering and
// astro dev), with a search index made once.
import { getSiteData } from "../build/site-data.ts";
import type { PageData } from "../domain/pages/page-data.ts";
import { buildReviewIndex } from "../domain/search/review-index.ts";

let built: Promise<PageData> | undefined;

export function loadPageData(locals: App.Locals): Promise<PageData> {
  if (locals.site) return Promise.resolve(locals.site);
  built ??= getSiteData().then((s) => ({
    baseUrl: s.baseUrl,
    dataset: s.dataset,
    insights: s.insights,
    index: buildReviewIndex(s.dataset.business, s.dataset.reviews),
  }));
  return built;
}
