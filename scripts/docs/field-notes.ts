// What each content field and configuration variable means, for the generated tables in docs/. Types, defaults
// and rules come from the schemas themselves; tests fail when a field has no note or a note names no field.
import type { ConfigSchema } from "../../src/config.ts";

const catalogEntry = (kind: string) => ({
  id: `the ${kind}'s id, used in URLs (\`/${kind === "service area" ? "areas" : `${kind}s`}/{id}/\`); lower case, digits and hyphens`,
  name: `the ${kind}'s name as shown on pages`,
  aliases: "other names reviews use for it (any case); a review may name it by id, name or alias",
});

export const BUSINESS_NOTES: Record<string, string> = {
  name: "the business's name",
  description: "one or two sentences shown on the home page and in feeds",
  url: "the business's own website",
  telephone: "phone number as customers dial it; never redacted from reviews",
  email: "public contact address; never redacted from reviews",
  address: "postal address (schema.org `PostalAddress`)",
  "address.street_address": "street and number",
  "address.locality": "city or town",
  "address.region": "state, province or region",
  "address.postal_code": "postal code",
  "address.country": "ISO 3166 country code such as `US`; also the country phone numbers without `+` are read in",
  geo: "map position",
  "geo.latitude": "degrees north",
  "geo.longitude": "degrees east",
  price_range: "schema.org `priceRange`, such as `$$`",
  opening_hours: "schema.org opening hours strings, such as `Mo-Fr 07:00-18:00`",
  same_as: "the business's profiles elsewhere (schema.org `sameAs`)",
  logo: "logo image URL",
  photos: "up to 12 photos shown on the home page (and schema.org `image`)",
  "photos[].src": "the photo's http(s) URL",
  "photos[].alt": "what the photo shows, for people who cannot see it",
  booking_url: "where customers book a visit: a button at the top of every page",
  review_url: 'the business\'s own review-invitation link: a "Leave a review" button on the home page',
  licence: "a line of text such as a contractor's licence number, shown on the home page",
  brand_color:
    "`#rrggbb`: the buttons and a line at the top of each page (text in black or white, whichever contrasts more)",
  schema_type: "schema.org type of the business (default `LocalBusiness`)",
  services: "the catalog of services reviews can be tagged with",
  ...Object.fromEntries(Object.entries(catalogEntry("service")).map(([k, v]) => [`services[].${k}`, v])),
  technicians: "the catalog of technicians reviews can be tagged with (may be empty)",
  ...Object.fromEntries(Object.entries(catalogEntry("technician")).map(([k, v]) => [`technicians[].${k}`, v])),
  service_areas: "the catalog of service areas reviews can be tagged with (may be empty)",
  ...Object.fromEntries(Object.entries(catalogEntry("service area")).map(([k, v]) => [`service_areas[].${k}`, v])),
  "service_areas[].postal_codes": "postal codes the area covers",
};

export const REVIEW_NOTES: Record<string, string> = {
  rating: "stars given by the customer",
  date: "the day the review was written; not more than a day in the future",
  updated:
    "when the customer last edited the review; default: `date`. The published `updated` is the later of this and `response.date`",
  title: "the review's title, if the platform has one",
  text: "the review's words (may be empty for a rating without a comment)",
  author: "the reviewer's name as published",
  verified: "only `true` reviews are published; imports write `false` until a person checks the review",
  source: "where the review came from, such as `google` or `website`",
  language: "BCP 47 tag of the text such as `en` or `es`; default `en`",
  response: "the owner's public reply",
  "response.text": "the reply's words",
  "response.date": "the day of the reply; not before the review's `date`",
  technicians: "technicians the review is about: catalog id, name or alias",
  services: "services the review is about: catalog id, name or alias",
  service_areas: "service areas the review is about: catalog id, name or alias",
  private: "anything for your own records (order numbers, the customer's email); never published",
};

export const CONFIG_NOTES: Record<keyof typeof ConfigSchema.shape, string> = {
  PORT: "port of the one process that serves everything",
  AUTHOR_NAME_POLICY:
    "how `npm run import` writes reviewers' names: `initial` (first name and last initial), `first` or `full`",
  AUTHOR_NAME_SCOPE:
    "which names AUTHOR_NAME_POLICY applies to: `import` (what `npm run import` writes) or `all` (the build also publishes the names written by hand in content/ that way; the files stay as written)",
  npm_lifecycle_event: "set by npm for the scripts it runs; the server then also exits when npm does",
  HOST: "interface to bind",
  BASE_URL:
    "the public origin: topic URLs, feed ids and links, OpenAPI `servers`, the hub URL. Build and sidecar must agree: the sidecar refuses a `dist/` built for another `BASE_URL`",
  CONTENT_DIR: "where the business and its reviews are read from at build time",
  DIST_DIR: "the built static output that the sidecar serves and watches",
  DATA_DIR: "the sidecar's own state (the hub's SQLite database)",
  BUILD_CACHE_DIR:
    "the build's incremental cache (content snapshot, analysis, compressed variants, the Astro bundle); deleting it is always safe",
  HUB_CALLBACK_ALLOWLIST: "comma-separated CIDRs that callbacks may resolve to although they are private",
  HUB_LEASE_DEFAULT_SECONDS: "lease given when a subscriber asks for none",
  HUB_LEASE_MIN_SECONDS: "requested leases are raised to at least this",
  HUB_LEASE_MAX_SECONDS: "requested leases are cut to at most this",
  HUB_RETRY_DELAYS_MS: "comma-separated waits before the 2nd and 3rd delivery attempt",
  HUB_TIMEOUT_MS: "timeout of one verification or delivery request",
  HUB_RATE_LIMIT_PER_CLIENT: "hub requests per minute from one client address (429 beyond)",
  HUB_RATE_LIMIT_PER_CALLBACK_HOST: "hub requests per minute naming one callback host (429 beyond)",
  HUB_VERIFY_QUEUE_MAX: "verifications of intent waiting or running, in all (503 beyond)",
  HUB_VERIFY_QUEUE_MAX_PER_HOST: "verifications waiting or running for one callback host (429 beyond)",
  HUB_VERIFY_RETRY_DELAYS_MS:
    "comma-separated waits before the 2nd, 3rd and 4th verification of intent when the callback gave no answer (timeout, no connection, 5xx, 429), each drawn between half and all of its value; `none`: refused at the first",
  MCP_SESSION_IDLE_SECONDS: "a 2025-revision MCP session idle this long expires",
  MCP_MAX_SESSIONS: "live 2025-revision MCP sessions one instance tracks (503 with Retry-After beyond)",
  MCP_MAX_SESSIONS_PER_CLIENT:
    "live 2025-revision MCP sessions per client address; at the cap the client's least valuable session (never initialized, then least recently used) ends to admit the new one",
  MCP_UNINITIALIZED_SESSION_SECONDS:
    "a session that never sent `notifications/initialized` expires after this idle time",
  MCP_SESSION_SECRET:
    "key that signs MCP session ids; every instance with the same key accepts any session. Empty: with `DATABASE_URL`, a key stored once in the database and shared by the instances; without, a random key per process",
  BUILD_TEST_FAULT: "tests only: makes the build kill itself between its two renames",
  DATABASE_URL:
    "`postgres://…`: the hub's state, rate-limit counters and ended MCP sessions live in PostgreSQL, shared by several instances. Empty: SQLite in `DATA_DIR`, for one instance",
  TRUST_PROXY:
    "Express's `trust proxy`: `loopback`, a hop count, or names, addresses and CIDRs separated by commas; limits and logs then see the client behind the proxy",
  LOG_LEVEL: "least severe event logged",
  LOG_FORMAT: "`json` (one line per event), `pretty`, or `auto`: pretty on a terminal, JSON otherwise",
  CI: "set by CI systems; any value but `false`, `0`, `no`, `off` makes `npm run publish` refuse a loopback `BASE_URL`",
  PII_POLICY:
    "customers' emails and phone numbers in published text: `redact`, `fail` (refuse the build, naming files) or `off`",
};
