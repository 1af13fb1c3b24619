// `astro dev` only (astro.config.mjs injects it): the build's data files (src/build/site-files.ts) by their path,
// so the pages' links work in development. Builds write these files themselves and never bundle this route.
import type { APIRoute } from "astro";
import { getSiteData, type SiteData } from "../build/site-data.ts";
import { siteFiles } from "../build/site-files.ts";
import { widgetScripts } from "../build/widget-script.ts";
import { loadPageData } from "../components/load-page-data.ts";
import { mediaTypeOf } from "../domain/media-types.ts";

export const prerender = false;

const made = new WeakMap<SiteData, Map<string, string | Uint8Array<ArrayBuffer>>>();

export const GET: APIRoute = async ({ url }) => {
  const site = await getSiteData();
  let files = made.get(site);
  if (!files) {
    files = new Map([...siteFiles(site, await loadPageData({})), ...(await widgetScripts())]);
    made.set(site, files);
  }
  const body = files.get(url.pathname);
  if (body === undefined) return new Response(null, { status: 404 });
  return new Response(body, { headers: { "Content-Type": mediaTypeOf(url.pathname) } });
};
