// The OpenAPI 3.1 document: paths written here, every schema generated from the zod schemas.
import * as z from "zod";
import "./schemas/published.ts";
import "./schemas/insights.ts";
import "./widget/widget-schema.ts";
import { FEED_SIZE, feedUrls } from "./feeds/feed-items.ts";
import { withoutUnboundedLimits } from "./json-schema.ts";
import {
  bytesText,
  HEAVY_ANSWER_BYTES,
  HEAVY_ANSWERS_PER_CLIENT,
  HUB_FORM_MAX_BYTES,
  HUB_FORM_MAX_FIELDS,
  MAX_HEADER_BYTES,
  MAX_URL_BYTES,
  MCP_MAX_BODY_BYTES,
} from "./limits.ts";
import {
  MCP_CATALOG_PATH,
  MCP_PATH,
  MCP_REVISIONS,
  MCP_SERVER_CARD_MEDIA_TYPE,
  MCP_SERVER_CARD_PATH,
} from "./mcp-discovery.ts";
import {
  addAnswerExamples,
  answerExamples,
  type ExampleSource,
  exampleTechnician,
  sampleReviews,
} from "./openapi-answer-examples.ts";
import { addExamples } from "./openapi-examples.ts";
import { ENTITY_KINDS, PAGE_PATHS, REVIEWS_PER_PAGE, SITEMAP_MAX_URLS } from "./pages/site-paths.ts";
import {
  ErrorBody,
  IssuesBody,
  QUERY_MAX_LENGTH,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SearchParams,
  SearchResult,
  SinceParams,
  SinceResult,
} from "./schemas/api.ts";
import { hubFormSchema } from "./schemas/hub-form.ts";
import type { Business } from "./schemas/published.ts";
import { WIDGET_DATA_DIR, WIDGET_ENTITY_FIELDS, WIDGET_SCRIPT_PATH } from "./widget/widget-paths.ts";

export const API_VERSION = "1.0.0";

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const idOf = (schema: z.ZodType) => z.globalRegistry.get(schema)?.id as string;

const stringHeader = (description: string) => ({ description, schema: { type: "string" } });
const headers = {
  ETag: stringHeader("Strong validator: a hash of the response body (per content encoding)"),
  "Last-Modified": stringHeader("The newest `updated` of the reviews behind the response"),
  "Cache-Control": stringHeader("Caching policy for browsers and CDNs"),
  "Access-Control-Allow-Origin": stringHeader("Always `*`"),
  Vary: stringHeader("`Accept-Encoding`"),
};
/** Dynamic answers are sent uncompressed (identity only), so they carry no `Vary`. */
const { Vary: _staticOnly, ...dynamicHeaders } = headers;
const acceptRanges = stringHeader("`bytes`: a `Range` request gets that part of the file (206)");
const contentRange = stringHeader(
  "The bytes sent and the size of the whole, e.g. `bytes 0-9/5120` (both counted in the encoding sent)",
);
/** The static files answer one byte range (RFC 9110 section 14), as nginx does when it serves them. */
const rangeParams = [
  {
    name: "Range",
    in: "header",
    required: false,
    description:
      "One byte range of the file: `bytes=0-1023`, `bytes=1024-` (to the end), `bytes=-500` (the last 500). The bytes are those of the encoding sent: send `Accept-Encoding: identity` to count in the file's own bytes. Several ranges, a range that cannot be read, or HEAD get the whole file (200); a range starting past the end gets 416.",
    schema: { type: "string" },
  },
  {
    name: "If-Range",
    in: "header",
    required: false,
    description:
      "The `ETag` (or `Last-Modified`) of the copy being resumed: the range is sent only while the file is still that version, else the whole file (200).",
    schema: { type: "string" },
  },
];
/**
 * 206: a slice of the file's bytes in the file's own media type. It is a string of bytes, not a value of the whole
 * file's schema (the first bytes of a JSON file are not JSON), so its schema is a string and its example a slice.
 */
const partial = (mediaType: string) => ({
  description:
    'The byte range asked for (`Range`, with no `If-Range` or one naming the current version), in the file\'s media type and encoding. A slice of the file, not a document: its schema is a string whatever the media type (the start of a JSON file is not JSON); read it as text or bytes (openapi-fetch: `parseAs: "text"`).',
  headers: { ...headers, "Content-Range": contentRange, "Accept-Ranges": acceptRanges },
  content: {
    [mediaType]: {
      schema: { type: "string", description: "Bytes `first`-`last` of the file, as Content-Range says" },
    },
  },
});
const jsonError = (description: string, example: z.infer<typeof ErrorBody>) => ({
  description,
  content: { "application/json": { schema: ref(idOf(ErrorBody)), example } },
});
const issues400 = {
  description:
    "Invalid parameters: out of range, not a number, impossible date, since after until, repeated or unknown parameter, bad cursor. One issue per problem.",
  content: { "application/json": { schema: ref(idOf(IssuesBody)) } },
};
const notModified = {
  description: "The validator in If-None-Match (preferred) or If-Modified-Since matches; no body",
  headers: { ETag: headers.ETag, "Last-Modified": headers["Last-Modified"] },
};
const conditionalParams = [
  { name: "If-None-Match", in: "header", required: false, schema: { type: "string" } },
  { name: "If-Modified-Since", in: "header", required: false, schema: { type: "string" } },
];
const staticParams = [...conditionalParams, ...rangeParams];

type Operation = { operationId: string; responses: Record<string, object> } & Record<string, unknown>;

const HEAD_NOTE = "HEAD answers with the same status and headers and no body.";
/**
 * HEAD is served wherever GET is: said on the GET rather than described as an operation of its own, which renderers
 * (swagger-ui, Redoc) would list as a second copy of every path.
 */
function withHead(get: Operation) {
  const description = String(get.description ?? "");
  return { get: description.includes(HEAD_NOTE) ? get : { ...get, description: `${description} ${HEAD_NOTE}`.trim() } };
}

function staticGet(operationId: string, summary: string, description: string, mediaType: string, schema: object) {
  return withHead({
    operationId,
    summary,
    description,
    tags: ["datasets"],
    parameters: staticParams,
    responses: {
      200: {
        description:
          "The resource: also the answer to a `Range` whose `If-Range` names another version, or that asks for several ranges",
        headers: { ...headers, "Accept-Ranges": acceptRanges },
        content: { [mediaType]: { schema } },
      },
      206: partial(mediaType),
      304: notModified,
      414: { $ref: "#/components/responses/UriTooLong" },
      416: { $ref: "#/components/responses/RangeNotSatisfiable" },
    },
  });
}

/** nginx's own page for a 416 (server_tokens off): where nginx serves the static files, it answers ranges itself. */
const NGINX_416 =
  "<html>\r\n<head><title>416 Requested Range Not Satisfiable</title></head>\r\n<body>\r\n<center><h1>416 Requested Range Not Satisfiable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

const html = (description: string) => ({ description, content: { "text/html": { schema: { type: "string" } } } });

/** A page for people (HTML), rendered on demand with an ETag; `notFound`: its id or page number may not exist. */
function page(operationId: string, summary: string, description: string, notFound: boolean, extra: object = {}) {
  return withHead({
    operationId,
    summary,
    description,
    tags: ["pages"],
    parameters: conditionalParams,
    responses: {
      200: html("The page"),
      304: notModified,
      ...(notFound
        ? {
            404: {
              description:
                "No such page: the HTML 404 page for a client that accepts text/html, else the API's JSON error",
              content: {
                "text/html": { schema: { type: "string" } },
                "application/json": { schema: ref(idOf(ErrorBody)) },
              },
            },
          }
        : {}),
      414: { $ref: "#/components/responses/UriTooLong" },
    },
    ...extra,
  });
}

function pagePaths(): Record<string, object> {
  const idParam = (name: string, description: string) => ({
    name,
    in: "path",
    required: true,
    description,
    schema: { type: "string", minLength: 1 },
  });
  const paths: Record<string, object> = {
    [`${PAGE_PATHS.reviews}{id}/`]: page(
      "getReviewPage",
      "A review's permalink",
      "The review, its rating, author, owner response, mentioned technicians, services and areas, aspects and schema.org Review JSON-LD. 404 for an unknown or unverified id.",
      true,
      { parameters: [idParam("id", "Review id"), ...conditionalParams] },
    ),
    [PAGE_PATHS.reviews]: withHead({
      operationId: "getReviewsPage",
      summary: "Every review, or the reviews of a filter",
      description: `Without parameters: every review, newest first, ${REVIEWS_PER_PAGE} a page (later pages at /reviews/page/{n}/). With any parameter of GET /api/reviews/search (an empty field means no filter): its results as HTML, e.g. \`?aspect=cleanliness&aspect_polarity=negative&sort=lowest\`, with a link to the next page, the quotes of the chosen aspect marked. The aspect bars and chips of the other pages link here. Works without JavaScript.`,
      tags: ["pages"],
      parameters: [...queryParameters(SearchParams), ...conditionalParams],
      responses: {
        200: html("The reviews"),
        304: notModified,
        400: html("The filters with each problem named"),
        414: { $ref: "#/components/responses/UriTooLong" },
      },
    }),
    [`${PAGE_PATHS.reviews}page/{n}/`]: page(
      "getReviewsPageN",
      "A later page of every review",
      "Page 2 onwards of /reviews/; 404 past the last page.",
      true,
      {
        parameters: [
          {
            name: "n",
            in: "path",
            required: true,
            description: "Page number",
            schema: { type: "integer", minimum: 2 },
          },
          ...conditionalParams,
        ],
      },
    ),
    [PAGE_PATHS.search]: withHead({
      operationId: "getSearchPage",
      summary: "Search as a page",
      description:
        "The parameters of GET /api/reviews/search (an empty field means no filter), rendered as HTML with a link to the next page. Works without JavaScript.",
      tags: ["pages"],
      parameters: [...queryParameters(SearchParams), ...conditionalParams],
      responses: {
        200: html("Results"),
        304: notModified,
        400: html("The form with each problem next to its field"),
        414: { $ref: "#/components/responses/UriTooLong" },
      },
    }),
  };
  paths[PAGE_PATHS.apiReference] = page(
    "getApiReferencePage",
    "API reference",
    "This document as a page for people: every operation with its parameters, examples and answers.",
    false,
  );
  paths[PAGE_PATHS.widget] = page(
    "getWidgetPage",
    "The reviews widget",
    "Each variant of the embeddable widget, live, with the snippet to copy.",
    false,
  );
  for (const [kind, { path, singular, plural }] of Object.entries(ENTITY_KINDS)) {
    const name = kind.charAt(0).toUpperCase() + kind.slice(1);
    paths[path] = page(`get${name}Index`, `${plural}`, `Every ${singular.toLowerCase()} of the catalogue.`, false);
    paths[`${path}{id}/`] = page(
      `get${name}Page`,
      `A ${singular.toLowerCase()}'s page`,
      "Review count, average rating, aspect shares, trend by quarter, best quotes and the newest reviews that mention it.",
      true,
      { parameters: [idParam("id", `${singular} id from the catalogue`), ...conditionalParams] },
    );
  }
  // Described as the site links them, canonical URLs and the sitemap included: with the trailing slash.
  return paths;
}

/** The embeddable widget (docs/widget.md): its script and the small files it reads, one pair per slice. */
function widgetPaths(): Record<string, object> {
  const missing = {
    description: "No catalogue entry of that kind has this id",
    content: { "application/json": { schema: ref(idOf(ErrorBody)) }, "text/html": { schema: { type: "string" } } },
  };
  const entityParams = [
    {
      name: "kind",
      in: "path",
      required: true,
      description: "The widget attribute naming the entry",
      schema: { type: "string", enum: Object.keys(WIDGET_ENTITY_FIELDS) },
    },
    {
      name: "id",
      in: "path",
      required: true,
      description: "The entry's id in the catalogue",
      schema: { type: "string", pattern: "^[a-z0-9][a-z0-9-]*$" },
    },
    ...staticParams,
  ];
  const entity = (operationId: string, summary: string, schema: string) => {
    const op = staticGet(operationId, summary, `${summary}.`, "application/json", ref(schema));
    op.get.parameters = entityParams;
    op.get.responses = { ...op.get.responses, 404: missing };
    return withHead(op.get);
  };
  return {
    [WIDGET_SCRIPT_PATH]: staticGet(
      "getWidgetScript",
      "Reviews widget script",
      "The <reviews-widget> custom element as one ES module. The same code is also published under a content hash, /_astro/widget.{hash}.js, cached immutably.",
      "text/javascript",
      { type: "string" },
    ),
    [`${WIDGET_DATA_DIR}all.json`]: staticGet(
      "getWidgetSummary",
      "Widget data: the business",
      "Rating, distribution and aspects of every review, for the badge and aspects variants.",
      "application/json",
      ref("WidgetSummary"),
    ),
    [`${WIDGET_DATA_DIR}all.reviews.json`]: staticGet(
      "getWidgetReviews",
      "Widget data: the business's reviews",
      "The summary and the reviews any list of the widget can show (never the whole dataset).",
      "application/json",
      ref("WidgetReviews"),
    ),
    // The longer suffix first: a template's {id} matches any characters but a slash.
    [`${WIDGET_DATA_DIR}{kind}/{id}.reviews.json`]: entity(
      "getWidgetEntityReviews",
      "Widget data: the reviews of one technician, service or area",
      "WidgetReviews",
    ),
    [`${WIDGET_DATA_DIR}{kind}/{id}.json`]: entity(
      "getWidgetEntitySummary",
      "Widget data: one technician, service or area",
      "WidgetSummary",
    ),
  };
}

function queryParameters(schema: z.ZodObject) {
  const json = withoutUnboundedLimits(z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" })) as {
    properties: Record<string, { description?: string }>;
  };
  return Object.entries(json.properties).map(([name, s]) => {
    const { description, ...rest } = s;
    return { name, in: "query", required: false, description, schema: rest };
  });
}

/** `$schema` belongs to a document; a schema inside the OpenAPI document takes the document's dialect. */
function withoutDialect<T extends object>(schema: T): Omit<T, "$schema"> {
  const { $schema: _document, ...rest } = schema as T & { $schema?: string };
  return rest;
}

/** The hub's request body, generated from the schema the hub parses forms with. */
function hubFormJsonSchema(topics: readonly string[]) {
  return withoutUnboundedLimits(
    withoutDialect(z.toJSONSchema(hubFormSchema(topics), { io: "input", target: "draft-2020-12" })),
  );
}

/**
 * `examples`: the newest reviews and the insights of the build, which the examples of the answers are made from;
 * without them only parameters and errors have examples.
 */
export function renderOpenApi(
  business: Business,
  baseUrl: string,
  extraPaths: Record<string, object> = {},
  examples?: ExampleSource,
) {
  const urls = feedUrls(baseUrl);
  const { schemas } = withoutUnboundedLimits(
    z.toJSONSchema(z.globalRegistry, {
      uri: (id) => `#/components/schemas/${id}`,
      target: "draft-2020-12",
    }),
  );
  // Components are addressed by their JSON pointer; a `$id` there is forbidden by JSON Schema 2020-12 for
  // schemas that are not resources of their own, and `$schema` is the document's business.
  for (const s of Object.values(schemas)) {
    delete (s as { $schema?: string }).$schema;
    delete (s as { $id?: string }).$id;
  }
  const doc = {
    openapi: "3.1.0",
    info: {
      title: `${business.name} reviews API`,
      version: API_VERSION,
      summary: "Public, read-only verified customer reviews: datasets, feeds, search, MCP and a WebSub hub.",
      description: [
        "No authentication; an Authorization header is ignored. Every read endpoint sends `Access-Control-Allow-Origin: *`,",
        "supports HEAD, and answers conditional requests (If-None-Match wins over If-Modified-Since) with 304.",
        "Errors of the JSON API are JSON: 400 `{issues}` for invalid parameters, 404/405/413/414/431/500 `{error, message}`.",
        `Limits: URLs up to ${bytesText(MAX_URL_BYTES)}, request headers up to ${bytesText(MAX_HEADER_BYTES)}, MCP bodies up to ${bytesText(MCP_MAX_BODY_BYTES)}, \`query\` 1 to ${QUERY_MAX_LENGTH} characters,`,
        `\`limit\` 1 to ${SEARCH_LIMIT_MAX} (default ${SEARCH_LIMIT_DEFAULT}). Only reviews with \`verified: true\` are ever published.`,
      ].join(" "),
      license: { name: "Reviews are published by the business; see its site", url: business.url },
      contact: { name: business.name, url: business.url, ...(business.email ? { email: business.email } : {}) },
    },
    // Public and read-only: no operation needs credentials.
    security: [],
    servers: [{ url: baseUrl }],
    tags: [
      {
        name: "datasets",
        description: "Static files prebuilt from the content: datasets, feeds, this document, the page",
      },
      { name: "reviews", description: "Dynamic read API over the current build" },
      { name: "pages", description: "Pages for people, rendered on demand (HTML)" },
      { name: "mcp", description: "Model Context Protocol endpoint for AI agents" },
      { name: "websub", description: "WebSub hub for the three topics" },
    ],
    paths: {
      "/reviews.json": staticGet(
        "getReviewsDataset",
        "Reviews dataset",
        "Business metadata, aggregate rating and every verified review, newest first. A WebSub topic.",
        "application/json",
        ref("ReviewsDataset"),
      ),
      "/insights.json": staticGet(
        "getInsights",
        "Insights dataset",
        "Aspect-based sentiment (per aspect counts, score, trend by quarter, top terms, example quotes), entities (technicians, services, service areas), topics, FAQ and summary. Computed at build time from the published reviews; text flagged `generated: true` was written by the build, not by the business or a customer.",
        "application/json",
        ref("Insights"),
      ),
      "/api/feed.json": staticGet(
        "getJsonFeed",
        "JSON Feed 1.1",
        `The ${FEED_SIZE} newest reviews as JSON Feed 1.1 (served as application/json). A WebSub topic.`,
        "application/json",
        ref("JsonFeed"),
      ),
      "/feed.xml": staticGet(
        "getAtomFeed",
        "Atom feed",
        `The ${FEED_SIZE} newest reviews as Atom (RFC 4287). A WebSub topic.`,
        "application/atom+xml",
        { type: "string" },
      ),
      "/.well-known/openapi.json": staticGet("getOpenApi", "This document", "OpenAPI 3.1.0", "application/json", {
        type: "object",
      }),
      "/": staticGet("getHomePage", "Human page", "The business's public reviews page", "text/html", {
        type: "string",
      }),
      [PAGE_PATHS.sitemap]: staticGet(
        "getSitemap",
        "Sitemap",
        `Every review permalink, entity and list page; an index of parts past ${SITEMAP_MAX_URLS} URLs.`,
        "application/xml",
        { type: "string" },
      ),
      [PAGE_PATHS.robots]: staticGet("getRobots", "robots.txt", "Points crawlers to the sitemap", "text/plain", {
        type: "string",
      }),
      [PAGE_PATHS.llms]: staticGet(
        "getLlmsTxt",
        "llms.txt",
        "The datasets, feeds, OpenAPI document, MCP endpoint and hub, described for agents",
        "text/plain",
        { type: "string" },
      ),
      ...pagePaths(),
      ...widgetPaths(),
      ...extraPaths,
      "/api/reviews/search": withHead({
        operationId: "searchReviews",
        summary: "Search reviews",
        description:
          "Filters combine with AND; `aspect` and `aspect_polarity` together ask for one published aspect with that polarity. Order (`sort`): `relevance`, the default with `query` (title hits weigh 3, text hits 1, then newest first; without `query` the same as `newest`); `newest`, the default without `query` (date, updated descending, id ascending); `oldest` (date, updated ascending, id ascending); `highest` and `lowest` (by rating, newest first within a rating). Page on with `cursor` = `next_cursor`. An unknown technician or service gives an empty result. Same results as the MCP tool `search_reviews`.",
        tags: ["reviews"],
        parameters: queryParameters(SearchParams),
        responses: {
          200: {
            description: "Matching reviews",
            headers: { "Access-Control-Allow-Origin": headers["Access-Control-Allow-Origin"] },
            content: { "application/json": { schema: ref(idOf(SearchResult)) } },
          },
          400: issues400,
          414: { $ref: "#/components/responses/UriTooLong" },
          500: { $ref: "#/components/responses/ServerError" },
        },
      }),
      "/api/reviews/since/{date}": withHead({
        operationId: "reviewsSince",
        summary: "Reviews on or after a date",
        description:
          "Every review dated on or after `date`, oldest first (date, updated ascending, id ascending), streamed: the default answer holds them all, whatever their number. With `limit` (or `cursor`) one page instead, with `total`, `limit` and `next_cursor`; pass `next_cursor` as `cursor` with the same date for the next page. The ETag and Last-Modified come from the build and the date, so a conditional request is answered without reading any review.",
        tags: ["reviews"],
        parameters: [
          {
            name: "date",
            in: "path",
            required: true,
            schema: withoutDialect(z.toJSONSchema(SinceParams.shape.date, { target: "draft-2020-12" })),
          },
          ...queryParameters(SinceParams.omit({ date: true })),
          ...conditionalParams,
        ],
        responses: {
          200: {
            description: "Reviews",
            headers: dynamicHeaders,
            content: { "application/json": { schema: ref(idOf(SinceResult)) } },
          },
          304: notModified,
          400: issues400,
          414: { $ref: "#/components/responses/UriTooLong" },
          429: {
            description: `This client already has ${HEAVY_ANSWERS_PER_CLIENT} answers over ${bytesText(HEAVY_ANSWER_BYTES)} in flight (not pages: those are always answered). Retry-After says when its first one should end at the pace it is read; or page with \`limit\` and \`cursor\`.`,
            headers: { "Retry-After": { schema: { type: "integer", minimum: 1 } } },
            content: { "application/json": { schema: ref(idOf(ErrorBody)) } },
          },
          500: { $ref: "#/components/responses/ServerError" },
        },
      }),
      [MCP_PATH]: {
        delete: {
          operationId: "mcpEndSession",
          summary: "End an MCP session",
          description: "Ends a session begun with `initialize` (protocol revisions that have sessions).",
          tags: ["mcp"],
          parameters: [{ name: "Mcp-Session-Id", in: "header", required: true, schema: { type: "string" } }],
          responses: {
            200: { description: "Session ended" },
            400: { description: "No Mcp-Session-Id", content: { "application/json": { schema: { type: "object" } } } },
            404: {
              description: "Unknown or ended session",
              content: { "application/json": { schema: { type: "object" } } },
            },
          },
        },
        post: {
          operationId: "mcpRequest",
          summary: "Model Context Protocol (streamable HTTP, JSON-RPC 2.0)",
          description: `Revisions ${MCP_REVISIONS.join(", ")}. 2026-07-28 is stateless: every request carries \`_meta\` with \`io.modelcontextprotocol/protocolVersion\` and \`io.modelcontextprotocol/clientCapabilities\` plus the \`MCP-Protocol-Version\`, \`Mcp-Method\` and \`Mcp-Name\` headers, \`server/discover\` lists the capabilities, results carry \`resultType\`. The 2025 revisions start with \`initialize\`, whose answer carries an \`Mcp-Session-Id\` header to send on every later request (valid on every instance). Send \`Accept: application/json, text/event-stream\`. Tools: get_business, search_reviews, get_review, get_reviews_since, get_insights. Any Origin may call (CORS); a foreign Host gets 403. Bodies over ${bytesText(MCP_MAX_BODY_BYTES)} get 413. Discovery: ${MCP_CATALOG_PATH} and ${MCP_SERVER_CARD_PATH}.`,
          tags: ["mcp"],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { type: "object" },
                example: {
                  jsonrpc: "2.0",
                  id: 1,
                  method: "initialize",
                  params: {
                    protocolVersion: "2025-06-18",
                    capabilities: {},
                    clientInfo: { name: "example-client", version: "1.0.0" },
                  },
                },
              },
            },
          },
          responses: {
            200: { description: "JSON-RPC response", content: { "application/json": { schema: { type: "object" } } } },
            202: { description: "Notification or response accepted" },
            400: {
              description: "Missing session id or bad request (JSON-RPC error)",
              content: { "application/json": { schema: { type: "object" } } },
            },
            403: {
              description: "Host is not this server's (DNS-rebinding protection)",
              content: { "application/json": { schema: { type: "object" } } },
            },
            404: {
              description: "Unknown or ended session",
              content: { "application/json": { schema: { type: "object" } } },
            },
            413: {
              description: `Body over ${bytesText(MCP_MAX_BODY_BYTES)}`,
              content: { "application/json": { schema: { type: "object" } } },
            },
            406: {
              description: "Accept lacks application/json or text/event-stream",
              content: { "application/json": { schema: { type: "object" } } },
            },
            415: {
              description: "Content-Type is not application/json",
              content: { "application/json": { schema: { type: "object" } } },
            },
            429: {
              description: "Too many live sessions from this address (MCP_MAX_SESSIONS_PER_CLIENT); Retry-After",
              content: { "application/json": { schema: { type: "object" } } },
            },
            503: {
              description: "Too many live sessions (MCP_MAX_SESSIONS); Retry-After says when to try again",
              content: { "application/json": { schema: { type: "object" } } },
            },
          },
        },
      },
      [MCP_CATALOG_PATH]: withHead({
        operationId: "getMcpCatalog",
        summary: "MCP Catalog: the MCP servers of this origin (server-card extension, SEP-2127)",
        description: "Lists this origin's MCP server with a link to its Server Card.",
        tags: ["mcp"],
        responses: {
          200: { description: "MCP Catalog", content: { "application/json": { schema: { type: "object" } } } },
          414: { $ref: "#/components/responses/UriTooLong" },
        },
      }),
      [MCP_SERVER_CARD_PATH]: withHead({
        operationId: "getMcpServerCard",
        summary: "MCP Server Card: name, endpoint, transport and protocol revisions",
        description:
          "What an MCP client needs to connect: the endpoint, its transport and the protocol revisions it serves.",
        tags: ["mcp"],
        responses: {
          200: {
            description: "Server Card",
            content: { [MCP_SERVER_CARD_MEDIA_TYPE]: { schema: { type: "object" } } },
          },
          414: { $ref: "#/components/responses/UriTooLong" },
        },
      }),
      "/api/websub/hub": {
        ...withHead({
          operationId: "getHubPage",
          summary: "WebSub hub: what it is, its topics, how to subscribe",
          description:
            'A short HTML page for people and for link checkers following the `<link rel="hub">` of every page; subscribers POST.',
          tags: ["websub"],
          responses: {
            200: { ...html("The page"), headers: { "Cache-Control": headers["Cache-Control"] } },
            414: { $ref: "#/components/responses/UriTooLong" },
          },
        }),
        post: {
          operationId: "hubSubscription",
          summary: "WebSub hub: subscribe or unsubscribe",
          description: `Topics: ${urls.atom}, ${urls.json}, ${urls.dataset}. Callbacks must be HTTPS; verification of intent runs after the 202 (a callback that times out, cannot be reached or answers 5xx or 429 is asked again after each wait of HUB_VERIFY_RETRY_DELAYS_MS, then refused; any other answer but the challenge refuses at once). Deliveries carry the full topic content, its Content-Type and a Link header (rel=hub, rel=self); with hub.secret, X-Hub-Signature: sha256=<hex HMAC>.`,
          tags: ["websub"],
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: hubFormJsonSchema([urls.atom, urls.json, urls.dataset]),
                example: {
                  "hub.mode": "subscribe",
                  "hub.topic": urls.atom,
                  "hub.callback": "https://subscriber.example/websub/callback",
                  "hub.lease_seconds": "86400",
                },
              },
            },
          },
          responses: {
            202: { description: "Accepted, with no body; verification of intent follows" },
            400: {
              description: "Invalid request (reason in plain text)",
              content: { "text/plain": { schema: { type: "string" } } },
            },
            413: {
              description: `Body larger than ${bytesText(HUB_FORM_MAX_BYTES)}, or more than ${HUB_FORM_MAX_FIELDS} fields`,
              content: { "text/plain": { schema: { type: "string" } } },
            },
            415: { description: "Body is not form-encoded", content: { "text/plain": { schema: { type: "string" } } } },
            429: {
              description: "Rate limit exceeded, or too many verifications pending for this callback host",
              content: { "text/plain": { schema: { type: "string" } } },
            },
            503: {
              description: "Verification queue full, or the hub cannot store the request now; Retry-After",
              content: { "text/plain": { schema: { type: "string" } } },
            },
          },
        },
      },
    },
    components: {
      schemas,
      responses: {
        UriTooLong: jsonError(`The URL is longer than ${bytesText(MAX_URL_BYTES)}`, {
          error: "uri_too_long",
          message: `The URL is longer than ${MAX_URL_BYTES} bytes.`,
        }),
        RangeNotSatisfiable: {
          description:
            "The range starts past the end of the file (its size, in the encoding asked for, is in Content-Range). The service answers with its JSON error; where nginx serves the static files (the generated configuration), the body is nginx's own short HTML page.",
          headers: {
            "Content-Range": stringHeader("`bytes */{size}`: the size of the file in the encoding asked for"),
          },
          content: {
            "application/json": {
              schema: ref(idOf(ErrorBody)),
              example: { error: "range_not_satisfiable", message: "The file has 5120 bytes." },
            },
            "text/html": { schema: { type: "string" }, example: NGINX_416 },
          },
        },
        ServerError: jsonError("Internal error; nothing internal is revealed", {
          error: "internal_error",
          message: "Something went wrong on our side. It has been logged.",
        }),
      },
    },
  };
  // The technician the answers' examples are about goes first, so that the parameters name the same one.
  const technician = examples && exampleTechnician(business, examples);
  const technicians = [...business.technicians].sort(
    (a, b) => Number(b.id === technician) - Number(a.id === technician),
  );
  addExamples(
    doc.paths as unknown as Parameters<typeof addExamples>[0],
    { ...business, technicians },
    examples && sampleReviews(examples.reviews)[0]?.id,
  );
  if (examples) {
    addAnswerExamples(
      doc.paths as unknown as Parameters<typeof addAnswerExamples>[0],
      answerExamples(business, baseUrl, API_VERSION, examples),
    );
  }
  return doc;
}
