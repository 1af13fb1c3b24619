// The data a page renders: the sidecar's current build or the build's own site data (passed as locals), or in
// `astro dev` the site data computed from the environment, with a search index made once. The build's pipeline is
// imported in `astro dev` alone: bundled, it put the whole analysis and its lexicons (a 10 MB chunk, 0.8 s to
// compile and run) into every process that renders a page, the sidecar and each build's page rendering.
import type { PageData } from "../domain/pages/page-data.ts";

let built: Promise<PageData> | undefined;

export function loadPageData(locals: App.Locals): Promise<PageData> {
  if (locals.site) return Promise.resolve(locals.site);
  if (!import.meta.env.DEV) return Promise.reject(new Error("a page was rendered without its build's data"));
  built ??= Promise.all([import("../build/site-data.ts"), import("../build/site-files.ts")]).then(
    ([{ getSiteData }, { buildPageData }]) => getSiteData().then(buildPageData),
  );
  return built;
}
