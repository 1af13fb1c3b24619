// The data a page renders: the sidecar's current build or the build's own site data (passed as locals), or in
// `astro dev` the site data computed from the environment, with a search index made once.
import { getSiteData } from "../build/site-data.ts";
import { buildPageData } from "../build/site-files.ts";
import type { PageData } from "../domain/pages/page-data.ts";

let built: Promise<PageData> | undefined;

export function loadPageData(locals: App.Locals): Promise<PageData> {
  if (locals.site) return Promise.resolve(locals.site);
  built ??= getSiteData().then(buildPageData);
  return built;
}
