/** Static datasets and feeds: short browser caching, a longer shared (CDN) cache, revalidated by ETag. */
export const CACHE_DATA = "public, max-age=60, s-maxage=300, stale-while-revalidate=600";
/** Dynamic API answers change only with a build. */
export const CACHE_API = "public, max-age=60";
/** Build assets with a content hash in their name. */
export const CACHE_IMMUTABLE = "public, max-age=31536000, immutable";
