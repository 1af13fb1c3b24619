// The pure pieces of the HTTP layer and of search paging: encodings, conditional requests, cursors.
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { test } from "node:test";
import { isNotModified } from "../../sidecar/http/conditional.ts";
import { etagMatches, parseHttpDate } from "../../src/domain/http/conditional.ts";
import { acceptedEncodings } from "../../src/domain/http/encoding.ts";
import { SearchParams } from "../../src/domain/schemas/api.ts";
import {
  compareKeys,
  decodeCursor,
  encodeCursor,
  filterFingerprint,
  type SortKey,
} from "../../src/domain/search/cursor.ts";

const sorted = (header?: string) => [...acceptedEncodings(header)].sort();

test("Accept-Encoding: names, q-values, the wildcard and identity;q=0", () => {
  assert.deepEqual(sorted(undefined), ["identity"]);
  assert.deepEqual(sorted("gzip, deflate, br"), ["br", "gzip", "identity"]);
  assert.deepEqual(sorted("br;q=0, gzip;q=0.5"), ["gzip", "identity"]);
  assert.deepEqual(sorted("*"), ["br", "gzip", "identity"]);
  assert.deepEqual(sorted("*;q=0, gzip"), ["gzip"]);
  assert.deepEqual(sorted("GZIP;Q=1"), ["gzip", "identity"]);
  assert.deepEqual(sorted("identity;q=0, br"), ["br"]);
  assert.deepEqual(sorted("br;q=abc"), ["identity"], "an unreadable q-value does not accept");
});

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const LM = "Wed, 01 Jan 2025 00:00:00 GMT";

test("If-None-Match: weak comparison, lists and *; it wins over If-Modified-Since", () => {
  assert.ok(etagMatches('"a"', '"a"'));
  assert.ok(etagMatches('W/"a"', '"a"'));
  assert.ok(etagMatches('"x", "a"', '"a"'));
  assert.ok(etagMatches("*", '"a"'));
  assert.ok(!etagMatches('"b"', '"a"'));
  assert.ok(!isNotModified(req({ "if-none-match": '"b"', "if-modified-since": LM }), '"a"', LM));
  assert.ok(isNotModified(req({ "if-none-match": '"a"', "if-modified-since": "garbage" }), '"a"', LM));
});

test("If-Modified-Since: a date at or after Last-Modified; unreadable dates are ignored", () => {
  assert.ok(isNotModified(req({ "if-modified-since": LM }), '"a"', LM));
  assert.ok(isNotModified(req({ "if-modified-since": "Thu, 02 Jan 2025 00:00:00 GMT" }), '"a"', LM));
  assert.ok(!isNotModified(req({ "if-modified-since": "Tue, 31 Dec 2024 00:00:00 GMT" }), '"a"', LM));
  assert.ok(!isNotModified(req({ "if-modified-since": "not a date" }), '"a"', LM));
  assert.ok(!isNotModified(req({ "if-modified-since": LM }), '"a"', undefined));
  assert.ok(!isNotModified(req({ "if-modified-since": "x 2099" }), '"a"', LM), "Date.parse would read 2099");
});

test("HTTP-date: IMF-fixdate and the two obsolete forms, nothing else (RFC 9110 5.6.7)", () => {
  const ms = Date.UTC(1994, 10, 6, 8, 49, 37);
  assert.equal(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT"), ms);
  assert.equal(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT"), ms);
  assert.equal(parseHttpDate("Sun Nov  6 08:49:37 1994"), ms);
  assert.equal(parseHttpDate("Wed, 31 Dec 2025 23:59:60 GMT"), Date.UTC(2025, 11, 31, 23, 59, 59), "a leap second");
  assert.equal(parseHttpDate("Mon, 06 Nov 0050 08:49:37 GMT"), new Date("0050-11-06T08:49:37Z").getTime());
  for (const bad of [
    "garbage 2099",
    "2030",
    "x 2030",
    "2026-11-23T00:00:00Z",
    "Sun, 31 Feb 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 24:00:00 GMT",
    "sun, 06 Nov 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 08:49:37 UTC",
    "Sun, 6 Nov 1994 08:49:37 GMT",
    " Sun, 06 Nov 1994 08:49:37 GMT",
  ])
    assert.ok(Number.isNaN(parseHttpDate(bad)), bad);
});

test("cursors round-trip, are bound to their filters, and refuse anything else", () => {
  const params = SearchParams.parse({ rating: 5, limit: 10 });
  const fp = filterFingerprint(params);
  assert.equal(fp, filterFingerprint(SearchParams.parse({ rating: 5, limit: 50 })), "limit is not a filter");
  assert.notEqual(fp, filterFingerprint(SearchParams.parse({ rating: 4 })));
  const key: SortKey = [2, "2025-01-02", "2025-01-02T10:00:00Z", "abc"];
  assert.deepEqual(decodeCursor(encodeCursor(fp, key), fp), key);
  assert.match(String(decodeCursor(encodeCursor(fp, key), "other")), /other filters/);
  for (const bad of [
    "",
    "!!!",
    Buffer.from("[1,2]").toString("base64url"),
    Buffer.from('{"a":1}').toString("base64url"),
  ]) {
    assert.equal(typeof decodeCursor(bad, fp), "string", bad);
  }
});

test("result order: relevance, then newest date and updated, then id", () => {
  const keys: SortKey[] = [
    [0, "2025-01-01", "2025-01-01T00:00:00Z", "b"],
    [1, "2024-01-01", "2024-01-01T00:00:00Z", "z"],
    [0, "2025-01-01", "2025-01-01T00:00:00Z", "a"],
    [0, "2025-01-01", "2025-01-03T00:00:00Z", "c"],
    [0, "2025-02-01", "2025-02-01T00:00:00Z", "d"],
  ];
  assert.deepEqual(
    [...keys].sort(compareKeys).map((k) => k[3]),
    ["z", "d", "c", "a", "b"],
  );
});
