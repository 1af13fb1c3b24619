import type { APIRoute } from "astro";
import { loadPageData } from "../components/load-page-data.ts";
import { renderLlmsTxt } from "../domain/pages/crawler-files.ts";

export const GET: APIRoute = async ({ locals }) => {
  const { dataset, baseUrl } = await loadPageData(locals);
  return new Response(renderLlmsTxt(dataset, baseUrl));
};
