import type { APIRoute } from "astro";
import { getSiteData } from "../build/site-data.ts";

export const GET: APIRoute = async () => new Response(JSON.stringify((await getSiteData()).insights));
