// The parts of the sitemap index, when there are more URLs than one sitemap may hold.
import type { APIRoute, GetStaticPaths } from "astro";
import { loadPageData, sitemapFiles } from "../../components/load-page-data.ts";
import { sitemapPartPath } from "../../domain/pages/site-paths.ts";

export const getStaticPaths: GetStaticPaths = async () => {
  const files = sitemapFiles(await loadPageData({}));
  const paths = [];
  for (let part = 1; files.has(sitemapPartPath(part)); part++) {
    paths.push({ params: { part: String(part) }, props: { body: files.get(sitemapPartPath(part)) } });
  }
  return paths;
};

export const GET: APIRoute = ({ props }) => new Response(props.body as string);
