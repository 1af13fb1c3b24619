// Where the pages for people and crawlers live: every page path is written here once and imported.
export const REVIEWS_PER_PAGE = 50;
/** The sitemap protocol's limit per file; beyond it /sitemap.xml becomes an index of parts. */
export const SITEMAP_MAX_URLS = 50_000;

export const PAGE_PATHS = {
  home: "/",
  reviews: "/reviews/",
  search: "/search",
  sitemap: "/sitemap.xml",
  robots: "/robots.txt",
  llms: "/llms.txt",
  notFound: "/404.html",
  /** The API reference for people, rendered from the OpenAPI document. */
  apiReference: "/docs/api/",
  /** The embeddable widget's own page (docs/widget.md). */
  widget: "/widget/",
} as const;

/** Catalogue kinds with a page each; `field` is the key in the business catalogue and in review mentions. */
export const ENTITY_KINDS = {
  technicians: { field: "technicians", path: "/technicians/", singular: "Technician", plural: "Technicians" },
  services: { field: "services", path: "/services/", singular: "Service", plural: "Services" },
  areas: { field: "service_areas", path: "/areas/", singular: "Service area", plural: "Service areas" },
} as const;
export type EntityKind = keyof typeof ENTITY_KINDS;

export const reviewPath = (id: string) => `${PAGE_PATHS.reviews}${encodeURIComponent(id)}/`;
export const entityPath = (kind: EntityKind, id: string) => `${ENTITY_KINDS[kind].path}${encodeURIComponent(id)}/`;
/** Page 1 is /reviews/ itself; later pages /reviews/page/2/ … */
export const reviewsPagePath = (page: number) =>
  page <= 1 ? PAGE_PATHS.reviews : `${PAGE_PATHS.reviews}page/${page}/`;
/** /reviews/ filtered and sorted by search parameters (GET /api/reviews/search's own names). */
export const reviewsFilteredPath = (params: Record<string, string>) => {
  const query = new URLSearchParams(params).toString();
  return query === "" ? PAGE_PATHS.reviews : `${PAGE_PATHS.reviews}?${query}`;
};
export const reviewsPageCount = (reviewCount: number) => Math.max(1, Math.ceil(reviewCount / REVIEWS_PER_PAGE));
/** The newest-first page of /reviews/ that lists the review at `rank`. */
export const reviewsPageOf = (rank: number) => Math.floor(rank / REVIEWS_PER_PAGE) + 1;
export const sitemapPartPath = (part: number) => `/sitemaps/${part}.xml`;

/** What the pages and llms.txt point agents and readers to, besides the feeds (feedUrls). */
export const SERVICE_PATHS = {
  insights: "/insights.json",
  openapi: "/.well-known/openapi.json",
  mcp: "/mcp",
  hub: "/api/websub/hub",
  searchApi: "/api/reviews/search",
  sinceApi: "/api/reviews/since/{date}",
} as const;
