import type { APIRoute } from "astro";
import { loadPageData, sitemapFiles } from "../components/load-page-data.ts";
import { PAGE_PATHS } from "../domain/pages/site-paths.ts";

export const GET: APIRoute = async ({ locals }) =>
  new Response(sitemapFiles(await loadPageData(locals)).get(PAGE_PATHS.sitemap));
