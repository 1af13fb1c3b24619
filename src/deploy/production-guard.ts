// A production build must name the public origin: feeds, topic URLs and the hub URL are written into the files.
import { PublishError } from "./publish-errors.ts";

const LOOPBACK = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;

export function isLoopbackOrigin(baseUrl: string): boolean {
  return LOOPBACK.test(new URL(baseUrl).hostname);
}

/** Throws unless `baseUrl` can be published: not localhost or a loopback address. */
export function assertPublicBaseUrl(baseUrl: string, why: string): void {
  if (!isLoopbackOrigin(baseUrl)) return;
  throw new PublishError(
    `BASE_URL is ${baseUrl} (${why}), a local address that subscribers and readers cannot reach. Set BASE_URL to the public origin, e.g. BASE_URL=https://reviews.example.com npm run publish.`,
  );
}
