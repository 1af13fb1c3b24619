// The real sidecar over real HTTP (Node's fetch and node:http): static files, search, since, errors, limits.
// Every response is checked against the served OpenAPI document.
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { newestUpdated } from "../../src/domain/order.ts";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { buildSample } from "../helpers/build.ts";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

let sidecar: RunningSidecar;
let api: OpenApiValidator;
let dataset: ReviewsDataset;

/** fetch + OpenAPI check of the response. */
async function get(path: string, init: RequestInit = {}): Promise<{ res: Response; body: string }> {
  const url = `${sidecar.url}${path}`;
  const res = await fetch(url, init);
  const body = await res.text();
  await api.check((init.method ?? "get").toLowerCase(), url, res, body);
  return { res, body };
}

/** Raw node:http request, for exact control over headers and to see encoded bytes. */
function raw(path: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(`${sidecar.url}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on("error", reject);
      req.end();
    },
  );
}

before(async () => {
  const dist = await buildSample();
  sidecar = await startTestSidecar(dist);
  const doc = await (await fetch(`${sidecar.url}/.well-known/openapi.json`)).json();
  api = new OpenApiValidator(doc);
  dataset = (await (await fetch(`${sidecar.url}/reviews.json`)).json()) as ReviewsDataset;
});

after(async () => {
  await sidecar.close();
});

describe("static files", () => {
  const expected: [string, string][] = [
    ["/reviews.json", "application/json; charset=utf-8"],
    ["/api/feed.json", "application/json; charset=utf-8"],
    ["/feed.xml", "application/atom+xml; charset=utf-8"],
    ["/.well-known/openapi.json", "application/json; charset=utf-8"],
    ["/", "text/html; charset=utf-8"],
  ];
  for (const [path, type] of expected) {
    test(`${path}: content type, strong ETag, Last-Modified, CORS, Cache-Control`, async () => {
      const { res } = await get(path);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), type);
      assert.match(res.headers.get("etag") ?? "", /^"[0-9a-f]{32}"$/);
      assert.equal(res.headers.get("last-modified"), new Date(dataset.reviews[0].updated).toUTCString());
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
      assert.match(res.headers.get("cache-control") ?? "", /s-maxage/);
    });
  }

  test("304 on a matching If-None-Match, even with Cache-Control: no-cache (what Node's fetch sends)", async () => {
    const first = await raw("/reviews.json");
    const etag = first.headers.etag as string;
    const again = await raw("/reviews.json", { "If-None-Match": etag, "Cache-Control": "no-cache" });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers["content-type"], undefined);
    assert.equal(again.headers.etag, etag);
    const fetched = await get("/reviews.json");
    const viaFetch = await get("/reviews.json", {
      headers: { "If-None-Match": fetched.res.headers.get("etag") as string },
    });
    assert.equal(viaFetch.res.status, 304);
    assert.equal(viaFetch.body, "");
  });

  test("If-None-Match wins over If-Modified-Since; weak and list forms match", async () => {
    const { headers } = await raw("/api/feed.json");
    const lm = headers["last-modified"] as string;
    assert.equal((await raw("/api/feed.json", { "If-None-Match": '"nope"', "If-Modified-Since": lm })).status, 200);
    assert.equal((await raw("/api/feed.json", { "If-Modified-Since": lm })).status, 304);
    assert.equal((await raw("/api/feed.json", { "If-Modified-Since": "Thu, 01 Jan 2015 00:00:00 GMT" })).status, 200);
    assert.equal((await raw("/api/feed.json", { "If-None-Match": `"x", W/${headers.etag}` })).status, 304);
    assert.equal((await raw("/api/feed.json", { "If-None-Match": "*" })).status, 304);
  });

  test("brotli and gzip variants: Vary, own ETag per encoding, same bytes once decoded", async () => {
    const plain = await raw("/reviews.json", { "Accept-Encoding": "identity" });
    const br = await raw("/reviews.json", { "Accept-Encoding": "gzip, br" });
    const gz = await raw("/reviews.json", { "Accept-Encoding": "gzip" });
    assert.equal(plain.headers["content-encoding"], undefined);
    assert.equal(br.headers["content-encoding"], "br");
    assert.equal(gz.headers["content-encoding"], "gzip");
    for (const r of [plain, br, gz]) assert.equal(r.headers.vary, "Accept-Encoding");
    assert.equal(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size, 3);
    assert.ok(brotliDecompressSync(br.body).equals(plain.body));
    assert.ok(gunzipSync(gz.body).equals(plain.body));
    assert.equal(
      (await raw("/reviews.json", { "Accept-Encoding": "br;q=0, gzip" })).headers["content-encoding"],
      "gzip",
    );
    const cond = await raw("/reviews.json", { "Accept-Encoding": "br", "If-None-Match": br.headers.etag as string });
    assert.equal(cond.status, 304);
  });

  test("HEAD gives the GET headers without a body", async () => {
    const head = await raw("/feed.xml", {}, "HEAD");
    const getRes = await raw("/feed.xml");
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers["content-length"], getRes.headers["content-length"]);
    assert.equal(head.headers.etag, getRes.headers.etag);
  });

  test("a wrong method gets 405 with Allow", async () => {
    const res = await fetch(`${sidecar.url}/reviews.json`, { method: "DELETE" });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "GET, HEAD");
    assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  });
});

describe("GET /api/reviews/search", () => {
  test("defaults: 20 newest first, with the envelope", async () => {
    const { res, body } = await get("/api/reviews/search");
    assert.equal(res.status, 200);
    const result = JSON.parse(body);
    assert.equal(result.total, dataset.reviews.length);
    assert.equal(result.count, 20);
    assert.equal(result.limit, 20);
    assert.deepEqual(
      result.reviews.map((r: { id: string }) => r.id),
      dataset.reviews.slice(0, 20).map((r) => r.id),
    );
    assert.equal(typeof result.next_cursor, "string");
  });

  test("filters combine with AND", async () => {
    const tech = dataset.business.technicians[0];
    const { body } = await get(
      `/api/reviews/search?rating=5&mentions_technician=${encodeURIComponent(tech.name.toUpperCase())}&since=2024-01-01&until=2025-12-31&limit=100`,
    );
    const result = JSON.parse(body);
    const expected = dataset.reviews.filter(
      (r) =>
        r.rating === 5 && r.mentions.technicians.includes(tech.id) && r.date >= "2024-01-01" && r.date <= "2025-12-31",
    );
    assert.ok(expected.length > 0);
    assert.equal(result.total, expected.length);
    assert.deepEqual(
      result.reviews.map((r: { id: string }) => r.id),
      expected.slice(0, 100).map((r) => r.id),
    );
  });

  test("query matches title or text case-insensitively, ordered by relevance", async () => {
    const { body } = await get("/api/reviews/search?query=ON%20TIME&limit=100");
    const result = JSON.parse(body);
    // Independent oracle: non-overlapping hits, a title hit weighs 3, a text hit 1; ties newest first.
    const hits = (s: string) => s.toLowerCase().split("on time").length - 1;
    const score = (r: { title?: string; text: string }) => 3 * hits(r.title ?? "") + hits(r.text);
    const expected = dataset.reviews
      .filter((r) => score(r) > 0)
      .map((r, rank) => ({ id: r.id, score: score(r), rank }))
      .sort((a, b) => b.score - a.score || a.rank - b.rank);
    assert.ok(expected.length > 1 && new Set(expected.map((e) => e.score)).size > 1, "the sample has several scores");
    assert.equal(result.total, expected.length);
    assert.deepEqual(
      result.reviews.map((r: { id: string }) => r.id),
      expected.slice(0, 100).map((e) => e.id),
    );
  });

  test("paging with the cursor visits every match once, in order", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const { body } = await get(`/api/reviews/search?min_rating=4&limit=37${cursor ? `&cursor=${cursor}` : ""}`);
      const page = JSON.parse(body);
      seen.push(...page.reviews.map((r: { id: string }) => r.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(
      seen,
      dataset.reviews.filter((r) => r.rating >= 4).map((r) => r.id),
    );
  });

  test("an unknown technician or service gives an empty result, not an error", async () => {
    const { res, body } = await get("/api/reviews/search?mentions_technician=Nobody&mentions_service=none");
    assert.equal(res.status, 200);
    assert.equal(JSON.parse(body).total, 0);
  });

  const invalid: [string, string, string][] = [
    ["rating=0", "rating", "too_small"],
    ["rating=2.5", "rating", "invalid_type"],
    ["min_rating=abc", "min_rating", "invalid_type"],
    ["min_rating=1e0", "min_rating", "invalid_type"],
    ["limit=0x10", "limit", "invalid_type"],
    ["limit=%2B5", "limit", "invalid_type"],
    ["limit=101", "limit", "too_big"],
    ["since=2023-02-30", "since", "custom"],
    ["since=2025-02-01&until=2025-01-01", "since", "custom"],
    ["rating=5&rating=4", "rating", "repeated_parameter"],
    ["colour=blue", "colour", "unknown_parameter"],
    ["__proto__=1", "__proto__", "unknown_parameter"],
    ["cursor=garbage", "cursor", "invalid_cursor"],
    [`query=${"x".repeat(201)}`, "query", "too_big"],
  ];
  for (const [qs, path, code] of invalid) {
    test(`400 with issues for ${qs.slice(0, 40)}`, async () => {
      const { res, body } = await get(`/api/reviews/search?${qs}`);
      assert.equal(res.status, 400);
      const { issues } = JSON.parse(body);
      const issue = issues.find((i: { path: string[] }) => i.path[0] === path);
      assert.ok(issue, body);
      assert.equal(issue.code, code);
      assert.ok(issue.message.length > 0);
    });
  }

  test("several problems give one issue each", async () => {
    const { body } = await get("/api/reviews/search?rating=9&limit=0&foo=1");
    const paths = JSON.parse(body)
      .issues.map((i: { path: string[] }) => i.path[0])
      .sort();
    assert.deepEqual(paths, ["foo", "limit", "rating"]);
  });

  test("a cursor from other filters is refused", async () => {
    const { body } = await get("/api/reviews/search?rating=5&limit=1");
    const cursor = JSON.parse(body).next_cursor;
    const { res, body: b2 } = await get(`/api/reviews/search?rating=4&limit=1&cursor=${cursor}`);
    assert.equal(res.status, 400);
    assert.match(b2, /other filters/);
  });
});

describe("GET /api/reviews/since/{date}", () => {
  test("reviews on or after the date, oldest first, with the envelope", async () => {
    const date = dataset.reviews[40].date;
    const { res, body } = await get(`/api/reviews/since/${date}`);
    assert.equal(res.status, 200);
    const result = JSON.parse(body);
    const expected = dataset.reviews.filter((r) => r.date >= date).reverse();
    assert.equal(result.since, date);
    assert.equal(result.count, expected.length);
    assert.deepEqual(new Set(result.reviews.map((r: { id: string }) => r.id)), new Set(expected.map((r) => r.id)));
    for (let i = 1; i < result.reviews.length; i++) assert.ok(result.reviews[i - 1].date <= result.reviews[i].date);
    assert.equal(res.headers.get("last-modified"), new Date(newestUpdated(expected) as string).toUTCString());
  });

  test("conditional GET: ETag and Last-Modified give 304", async () => {
    const first = await get("/api/reviews/since/2025-01-01");
    const etag = first.res.headers.get("etag") as string;
    assert.equal((await get("/api/reviews/since/2025-01-01", { headers: { "If-None-Match": etag } })).res.status, 304);
    const lm = first.res.headers.get("last-modified") as string;
    assert.equal(
      (await get("/api/reviews/since/2025-01-01", { headers: { "If-Modified-Since": lm } })).res.status,
      304,
    );
    assert.equal((await get("/api/reviews/since/2024-01-01", { headers: { "If-None-Match": etag } })).res.status, 200);
  });

  for (const bad of ["2025-13-01", "2025-02-29", "yesterday", "2025-1-1"]) {
    test(`invalid date ${bad} gives the issues 400`, async () => {
      const { res, body } = await get(`/api/reviews/since/${bad}`);
      assert.equal(res.status, 400);
      assert.deepEqual(JSON.parse(body).issues[0].path, ["date"]);
    });
  }
});

describe("errors and limits", () => {
  test("unknown /api/ route gives a JSON 404", async () => {
    const res = await fetch(`${sidecar.url}/api/nothing/here`);
    assert.equal(res.status, 404);
    assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal((await res.json()).error, "not_found");
  });

  test("wrong method on the API gets 405 with Allow", async () => {
    const res = await fetch(`${sidecar.url}/api/reviews/search`, { method: "POST", body: "{}" });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "GET, HEAD");
  });

  test("a URL over 2048 bytes gets 414 fast, as JSON", async () => {
    const { res, body } = await get(`/api/reviews/search?query=${"a".repeat(3000)}`);
    assert.equal(res.status, 414);
    assert.equal(JSON.parse(body).error, "uri_too_long");
  });

  test("headers over 16 KiB get 431", async () => {
    const res = await raw("/reviews.json", { "X-Big": "b".repeat(20000) });
    assert.equal(res.status, 431);
  });

  test("a malformed percent-encoding is a 4xx, never a 500", async () => {
    const res = await raw("/api/reviews/since/%E0%A4%A");
    assert.ok(res.status >= 400 && res.status < 500, String(res.status));
  });

  test("an Authorization header is ignored", async () => {
    const { res } = await get("/reviews.json", { headers: { Authorization: "Bearer whatever" } });
    assert.equal(res.status, 200);
  });

  test("CORS preflight for conditional requests", async () => {
    const res = await raw(
      "/reviews.json",
      {
        Origin: "https://example.org",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match",
      },
      "OPTIONS",
    );
    assert.equal(res.status, 204);
    assert.equal(res.headers["access-control-allow-origin"], "*");
    assert.match(String(res.headers["access-control-allow-headers"]), /If-None-Match/);
  });

  test("CORS for resuming a download: the preflight allows Range and If-Range, and a 206 exposes its range", async () => {
    const preflight = await raw(
      "/reviews.json",
      {
        Origin: "https://example.org",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "range, if-range",
      },
      "OPTIONS",
    );
    assert.equal(preflight.status, 204);
    const allowed = String(preflight.headers["access-control-allow-headers"]).split(/,\s*/);
    assert.ok(allowed.includes("Range") && allowed.includes("If-Range"), allowed.join(", "));
    const { res } = await get("/reviews.json", {
      headers: { Origin: "https://example.org", Range: "bytes=0-9", "Accept-Encoding": "identity" },
    });
    assert.equal(res.status, 206);
    const exposed = String(res.headers.get("access-control-expose-headers")).split(/,\s*/);
    for (const name of ["Content-Range", "Accept-Ranges", "ETag"])
      assert.ok(exposed.includes(name), exposed.join(", "));
  });

  test("every kind of response matches the OpenAPI document", async () => {
    const before = api.checked;
    const paths = [
      "/reviews.json",
      "/insights.json",
      "/api/feed.json",
      "/feed.xml",
      "/.well-known/openapi.json",
      "/",
      "/api/reviews/search?rating=5&limit=3",
      "/api/reviews/search?limit=0",
      "/api/reviews/since/2025-01-01",
      "/api/reviews/since/2025-02-30",
    ];
    for (const path of paths) await get(path);
    await get("/api/reviews/since/2025-01-01", { method: "HEAD" });
    assert.equal(api.checked - before, paths.length + 1);
  });
});
