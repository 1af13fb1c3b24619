import type { APIRoute } from "astro";
import { loadPageData } from "../components/load-page-data.ts";
import { renderRobots } from "../domain/pages/crawler-files.ts";

export const GET: APIRoute = async ({ locals }) => new Response(renderRobots((await loadPageData(locals)).baseUrl));
