// What an integrator does first: generate types from the served OpenAPI document with openapi-typescript and call
// every operation (hub included) through openapi-fetch with its default options, reading each documented status
// the service can be made to answer here (byte ranges of the static files included). A status the document lists
// must either be provoked below or be named, with the reason, in NOT_PROVOKED; an operation the document adds
// without a case here fails the test.
import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import { after, before, test } from "node:test";
import { generateTypes } from "openapi-client-tools/generate";
import createClient from "openapi-fetch";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { HUB_FORM_MAX_BYTES, MAX_URL_BYTES, MCP_MAX_BODY_BYTES } from "../../src/domain/limits.ts";
import { buildSample } from "../helpers/build.ts";
import { JSON_HEADERS, legacySession } from "../helpers/mcp-http.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

type Doc = { paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
type Call = {
  status: number;
  params?: { path?: Record<string, string>; query?: Record<string, unknown>; header?: Record<string, string> };
  body?: unknown;
  headers?: Record<string, string>;
  /** openapi-fetch's per-request choice for bodies that are not JSON (HTML, XML, text, JavaScript). */
  parseAs?: "text";
};

const BASE = "http://localhost:4321";
/** Statuses the document lists that this test does not provoke, and why. */
const NOT_PROVOKED: Record<string, string> = {
  500: "a server failure: nothing a client can cause",
  429: "the since answer's cap on concurrent answers over several MB (its own test holds it)",
  403: "a foreign Host header, which fetch does not let a client set",
  503: "the MCP instance's session cap (its own test holds it)",
};

let sidecar: RunningSidecar;
let doc: Doc;
const held = new Set<Socket>();
/**
 * Callback hosts that accept TCP and never answer: verifications of intent stay pending, so the hub's queue caps
 * (per callback host, in all) can be reached.
 */
const CALLBACK_HOSTS = ["127.0.0.2", "127.0.0.3", "127.0.0.4"];
const silent = CALLBACK_HOSTS.map(() =>
  createServer((s) => {
    held.add(s);
    s.on("close", () => held.delete(s));
  }),
);

before(async () => {
  for (const [i, server] of silent.entries()) {
    server.listen(0, CALLBACK_HOSTS[i]);
    await new Promise((r) => server.once("listening", r));
  }
  sidecar = await startTestSidecar(await buildSample(BASE), {
    BASE_URL: BASE,
    HUB_CALLBACK_ALLOWLIST: "127.0.0.0/8",
    HUB_TIMEOUT_MS: "60000",
    HUB_VERIFY_QUEUE_MAX: "2",
    HUB_VERIFY_QUEUE_MAX_PER_HOST: "1",
  });
  doc = (await (await fetch(`${sidecar.url}/.well-known/openapi.json`)).json()) as Doc;
});

after(async () => {
  for (const s of held) s.destroy();
  for (const server of silent) server.close();
  await sidecar?.close();
});

test("openapi-typescript generates types for every path of the document", async () => {
  const types = await generateTypes(doc);
  for (const path of Object.keys(doc.paths)) assert.ok(types.includes(`"${path}": {`), `no type for ${path}`);
});

test("openapi-fetch with default options calls every operation and reads every documented status", async () => {
  const client = createClient({ baseUrl: sidecar.url });
  // The document is read at run time, so its paths are plain strings here, not the generated types' literals.
  const request = client.request as unknown as (
    method: string,
    path: string,
    init: object,
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const dataset = (await (await fetch(`${sidecar.url}/reviews.json`)).json()) as {
    business: { technicians: { id: string }[]; services: { id: string }[]; service_areas: { id: string }[] };
    reviews: { id: string; date: string }[];
  };
  const { business, reviews } = dataset;
  const long = "x".repeat(MAX_URL_BYTES);
  const etagOf = async (path: string, headers: Record<string, string> = {}) =>
    (await fetch(`${sidecar.url}${path}`, { headers })).headers.get("etag") as string;
  // Ranges are counted in the bytes of the encoding sent: asked of the file's own bytes, so that the client reads
  // ten bytes rather than decompressing ten bytes of a compressed variant.
  const identity = { "Accept-Encoding": "identity" };
  const session = await legacySession(sidecar.url);
  const ended = await legacySession(sidecar.url);
  const hubForm = (host: string, name = "callback") => ({
    "hub.mode": "subscribe",
    "hub.topic": `${BASE}/feed.xml`,
    "hub.callback": `https://${host}:${(silent[CALLBACK_HOSTS.indexOf(host)]?.address() as { port: number } | null)?.port ?? 9}/${name}`,
  });
  const form = { "Content-Type": "application/x-www-form-urlencoded" };
  const rpc = (method: string, id?: number) => ({ jsonrpc: "2.0", ...(id === undefined ? {} : { id }), method });

  /**
   * The ordinary GET cases of an operation whose only parameters are conditional headers (and path ids); `ranged`:
   * a static file, which also answers a byte range resumed with its ETag (206, read as text: a slice of a JSON file
   * is no JSON) and a range past its end (416).
   */
  const readable = async (
    path: string,
    pathParams: Record<string, string>,
    text: boolean,
    ranged = false,
  ): Promise<Call[]> => {
    const url = path.replace(/\{(\w+)\}/g, (_m, k: string) => pathParams[k]);
    const parseAs = text ? ("text" as const) : undefined;
    const ranges: Call[] = [
      {
        status: 206,
        params: { path: pathParams, header: { Range: "bytes=0-9", "If-Range": await etagOf(url, identity) } },
        headers: identity,
        parseAs: "text",
      },
      { status: 416, params: { path: pathParams, header: { Range: "bytes=999999999-" } }, headers: identity, parseAs },
    ];
    return [
      { status: 200, params: { path: pathParams }, parseAs },
      { status: 304, params: { path: pathParams, header: { "If-None-Match": await etagOf(url) } }, parseAs },
      { status: 414, params: { path: pathParams, query: { q: long } }, parseAs },
      ...(ranged ? ranges : []),
    ];
  };
  const page = (ids: Record<string, string>, missing?: Record<string, string>) => async (path: string) => [
    ...(await readable(path, ids, true)),
    ...(missing ? [{ status: 404, params: { path: missing }, parseAs: "text" as const }] : []),
  ];
  const data = (text: boolean) => (path: string) => readable(path, {}, text, true);
  const widgetEntity = async (path: string) => [
    ...(await readable(path, { kind: "technician", id: business.technicians[0].id }, false, true)),
    { status: 404, params: { path: { kind: "technician", id: "no-such-technician" } } },
  ];
  const discovery = async (): Promise<Call[]> => [{ status: 200 }, { status: 414, params: { query: { q: long } } }];
  const GET: Record<string, (path: string) => Promise<Call[]>> = {
    getReviewsDataset: data(false),
    getInsights: data(false),
    getJsonFeed: data(false),
    getAtomFeed: data(true),
    getOpenApi: data(false),
    getHomePage: data(true),
    getSitemap: data(true),
    getRobots: data(true),
    getLlmsTxt: data(true),
    getReviewPage: page({ id: reviews[0].id }, { id: "no-such-review" }),
    getReviewsPage: async (path) => [
      ...(await readable(path, {}, true)),
      { status: 400, params: { query: { rating: "9" } }, parseAs: "text" },
    ],
    getReviewsPageN: page({ n: "2" }, { n: "99999" }),
    getSearchPage: async (path) => [
      ...(await readable(path, {}, true)),
      { status: 400, params: { query: { rating: "9" } }, parseAs: "text" },
    ],
    getWidgetPage: page({}),
    getApiReferencePage: page({}),
    getTechniciansIndex: page({}),
    getTechniciansPage: page({ id: business.technicians[0].id }, { id: "nobody" }),
    getServicesIndex: page({}),
    getServicesPage: page({ id: business.services[0].id }, { id: "nothing" }),
    getAreasIndex: page({}),
    getAreasPage: page({ id: business.service_areas[0].id }, { id: "nowhere" }),
    getWidgetScript: data(true),
    getWidgetSummary: data(false),
    getWidgetReviews: data(false),
    getWidgetEntityReviews: widgetEntity,
    getWidgetEntitySummary: widgetEntity,
    searchReviews: async () => [
      { status: 200, params: { query: { rating: 5, limit: 3 } } },
      { status: 400, params: { query: { rating: 9 } } },
      { status: 414, params: { query: { query: long } } },
    ],
    reviewsSince: async () => {
      const date = reviews[Math.floor(reviews.length / 2)].date;
      return [
        { status: 200, params: { path: { date }, query: { limit: 5 } } },
        {
          status: 304,
          params: { path: { date }, header: { "If-None-Match": await etagOf(`/api/reviews/since/${date}`) } },
        },
        { status: 400, params: { path: { date: "2025-02-30" } } },
        { status: 414, params: { path: { date }, query: { cursor: long } } },
      ];
    },
    getHubPage: async () => [
      { status: 200, parseAs: "text" },
      { status: 414, params: { query: { q: long } }, parseAs: "text" },
    ],
    getMcpCatalog: discovery,
    getMcpServerCard: discovery,
  };
  const OTHER: Record<string, () => Promise<Call[]>> = {
    mcpRequest: async () => [
      {
        status: 200,
        headers: JSON_HEADERS,
        body: {
          ...rpc("initialize", 1),
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "generated", version: "1" } },
        },
      },
      { status: 202, headers: { ...JSON_HEADERS, ...session }, body: rpc("notifications/initialized") },
      { status: 400, headers: JSON_HEADERS, body: rpc("tools/list", 2) },
      { status: 404, headers: { ...JSON_HEADERS, "Mcp-Session-Id": "no-such-session" }, body: rpc("tools/list", 3) },
      { status: 406, headers: { ...JSON_HEADERS, ...session, Accept: "text/html" }, body: rpc("tools/list", 4) },
      {
        status: 413,
        headers: { ...JSON_HEADERS, ...session },
        body: { ...rpc("tools/list", 5), params: { pad: "x".repeat(MCP_MAX_BODY_BYTES) } },
      },
      {
        status: 415,
        headers: { ...JSON_HEADERS, ...session, "Content-Type": "text/plain" },
        body: rpc("tools/list", 6),
      },
    ],
    mcpEndSession: async () => [
      { status: 200, params: { header: ended } },
      { status: 404, params: { header: ended } },
      { status: 400, params: { header: {} } },
    ],
    hubSubscription: async () => [
      { status: 202, headers: form, body: hubForm("127.0.0.2") },
      { status: 429, headers: form, body: hubForm("127.0.0.2", "another") },
      { status: 202, headers: form, body: hubForm("127.0.0.3") },
      { status: 503, headers: form, body: hubForm("127.0.0.4") },
      { status: 400, headers: form, body: { ...hubForm("127.0.0.4"), "hub.topic": `${BASE}/nope.xml` } },
      { status: 413, headers: form, body: { ...hubForm("127.0.0.4"), pad: "x".repeat(HUB_FORM_MAX_BYTES) } },
      { status: 415, headers: { "Content-Type": "application/json" }, body: hubForm("127.0.0.4") },
    ],
  };

  const seen = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (method === "parameters") continue;
      const read = method === "get" || method === "head";
      const cases = read ? GET[op.operationId] : OTHER[op.operationId];
      assert.ok(cases, `no case for ${method.toUpperCase()} ${path} (${op.operationId})`);
      const provoked = new Set<number>();
      for (const c of await cases(path)) {
        const init = { params: c.params, body: c.body, headers: c.headers, parseAs: c.parseAs };
        const { data, error, response } = await request(method, path, init);
        const what = `${method.toUpperCase()} ${path} -> ${c.status}`;
        assert.equal(response.status, c.status, `${what}: ${response.status} ${JSON.stringify(error)}`);
        assert.ok(op.responses[String(c.status)], `${what} is not documented`);
        if (c.status < 400 && c.status !== 304 && method !== "head" && c.status !== 202 && path !== "/mcp") {
          assert.notEqual(data, undefined, `${what}: no body read`);
        }
        if (c.status === 206) {
          assert.equal(typeof data === "string" && Buffer.byteLength(data), 10, `${what}: ten bytes`);
          assert.match(response.headers.get("content-range") ?? "", /^bytes 0-9\/\d+$/, what);
        }
        if (c.status === 416) {
          assert.equal((error as { error?: string }).error, "range_not_satisfiable", what);
          assert.match(response.headers.get("content-range") ?? "", /^bytes \*\/\d+$/, what);
        }
        provoked.add(c.status);
        if (read && c.status === 200) {
          // HEAD, said on every GET: the same status, no body read.
          const head = await request("head", path, { params: c.params });
          assert.equal(head.response.status, 200, `HEAD ${path}`);
          assert.equal(head.data, undefined);
        }
      }
      for (const status of Object.keys(op.responses)) {
        assert.ok(
          provoked.has(Number(status)) || NOT_PROVOKED[status],
          `${method.toUpperCase()} ${path}: documented ${status} neither provoked nor explained`,
        );
      }
      seen.add(op.operationId);
    }
  }
  assert.ok(seen.size >= Object.keys(GET).length + Object.keys(OTHER).length);
});
