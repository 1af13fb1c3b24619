import type { APIRoute } from "astro";
import { getSiteData } from "../build/site-data.ts";

// JSON.stringify of the dataset, serialised once (SiteData.datasetJson): a string body would be encoded again.
export const GET: APIRoute = async () => new Response((await getSiteData()).datasetJson);
