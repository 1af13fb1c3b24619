import type { APIRoute } from "astro";
import { loadPageData } from "../components/load-page-data.ts";
import { PAGE_PATHS } from "../domain/pages/site-paths.ts";
import { renderSitemaps } from "../domain/pages/sitemap.ts";

export const GET: APIRoute = async ({ locals }) =>
  new Response(renderSitemaps(await loadPageData(locals)).get(PAGE_PATHS.sitemap));
